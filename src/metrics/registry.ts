/**
 * One Prometheus registry per process, never prom-client's global default: two apps built in one process (the
 * tests do it all the time) then never share or double-register a metric, and nothing a dependency puts on the
 * global registry leaks into the scrape.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A fresh registry with prom-client's default process metrics (CPU, memory, event-loop lag, GC, handles). Those
 * keep their standard names (`process_*`, `nodejs_*`) so the usual Node.js dashboards and alerts read them
 * unchanged; every metric of the service itself is named `pmref_*`.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
