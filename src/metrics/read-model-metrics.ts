/**
 * Read-model metrics of a serving process: which generation it serves, how old that data is, and how its last
 * build went. All are read from the holder when Prometheus scrapes (nothing is pushed per swap), so the age is
 * the age at the scrape, not at the last swap.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** What a serving process knows of the model it serves (the read-model holder's view of it). */
export interface ReadModelFacts {
  generation: number;
  /** When this process built (or loaded) the model, ISO. */
  builtAt: string;
  /** When the run that published the served data finished, ISO; null when none has published. */
  publishedAt: string | null;
  /** How long the served model took to build (or to load from its pack), in milliseconds. */
  buildMs: number;
  /** Rebuilds that failed since the process started. */
  rebuildFailures: number;
}

/** Seconds since the epoch of an ISO time; NaN (an unknown value, as Prometheus writes it) for null. */
function epochSeconds(iso: string | null): number {
  return iso === null ? Number.NaN : Date.parse(iso) / 1000;
}

/**
 * Registers the read-model gauges on `registry`, reading `facts()` at each scrape. `now` is the wall clock
 * (injectable for tests).
 *
 * @example readModelMetrics(registry, () => ({ ...holder.served(), generation: holder.current().generation, builtAt: holder.current().builtAt }))
 */
export function readModelMetrics(registry: Registry, facts: () => ReadModelFacts, now: () => number = Date.now): void {
  new Gauge({
    name: 'pmref_read_model_generation',
    help: 'The generation this process serves (0: nothing published yet).',
    registers: [registry],
    collect() {
      this.set(facts().generation);
    },
  });
  new Gauge({
    name: 'pmref_read_model_data_age_seconds',
    help: 'Seconds since the pipeline run that published the served data finished, at scrape time (NaN: none published). /readyz judges this against PMREF_READY_MAX_AGE_MINUTES.',
    registers: [registry],
    collect() {
      const published = epochSeconds(facts().publishedAt);
      this.set(Number.isNaN(published) ? Number.NaN : Math.max(0, now() / 1000 - published));
    },
  });
  new Gauge({
    name: 'pmref_read_model_built_timestamp_seconds',
    help: 'When this process built (or loaded) the model it serves, seconds since the epoch.',
    registers: [registry],
    collect() {
      this.set(epochSeconds(facts().builtAt));
    },
  });
  new Gauge({
    name: 'pmref_read_model_build_duration_seconds',
    help: 'How long the served model took to build from the store (or to load from its pack).',
    registers: [registry],
    collect() {
      this.set(facts().buildMs / 1000);
    },
  });
  new Counter({
    name: 'pmref_read_model_rebuild_failures_total',
    help: 'Read-model rebuilds that failed (the previous generation stays served; the log says why).',
    registers: [registry],
    collect() {
      this.reset();
      const n = facts().rebuildFailures;
      if (n > 0) this.inc(n);
    },
  });
}
