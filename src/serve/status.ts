/**
 * `GET /v1/status` (served-shapes §17): the service's operational state, for operators and for clients that
 * want to know how much to trust what they are served. Unlike every other read it is computed per request
 * (it must say what the store holds now, not what it held at the last build), from a few cheap store reads
 * and the read model in hand. `serviceStatus` is the pure judgement; `StatusService` gathers its inputs.
 *
 * The rules (also in the schema's description):
 * - **degraded** — the store cannot be read, or the last pipeline run failed, was aborted (its process died
 *   before it published) or fell back somewhere (`partial`: a venue, order books, spot, history, editorial; its
 *   `degraded` list says which);
 * - **degraded** too when the rate-limit counters' Redis cannot be reached (per-process counters stand in);
 * - **stale** — the newest published data is older than twice the refresh interval, or this server still
 *   serves an older generation than the store holds (a rebuild is due or under way);
 * - **ok** otherwise. degraded wins over stale.
 *
 * Venue drift (issue 20) is informational: a `<venue>.drift` check per venue the last finished run watched,
 * `ok: false` when that pull's responses departed from the venue's published OpenAPI document (unknown fields,
 * missing required fields, changed types, pagination), with the counts and the most frequent finding. It does
 * not change `state`: the data was read and normalized (the adapters accept every recorded form), and the real
 * venues already depart from the documents we hold, so a drift-degraded status would never be ok. It is the
 * early warning that a venue changed its API, seen the day it happens rather than as missing data later.
 *
 * Simulated data is a fixed universe whose runs carry the simulated clock, so its age is not judged.
 */
import type { RunStatus, ServiceStatus } from '../domain/index.ts';
import type { PipelineRun, Store } from '../store/index.ts';
import type { ReadModelSource } from './query-service.ts';
import type { ReadModel } from './read-model.ts';

type Check = ServiceStatus['checks'][number];

/** What the store said, or why it could not be read. */
export type StoreView =
  | {
      ok: true;
      generation: number;
      counts: Awaited<ReturnType<Store['counts']>>;
      last: PipelineRun | null;
      lastPublished: PipelineRun | null;
    }
  | { ok: false; error: string };

export interface StatusInputs {
  now: Date;
  refreshMinutes: number;
  serviceName: string;
  origin: string;
  model: Pick<ReadModel, 'generation' | 'builtAt' | 'dataSource' | 'counts' | 'signals' | 'spot'>;
  store: StoreView;
  /**
   * The rate-limit counters' own report (the HTTP layer's meter), when they have one: shared counters in Redis
   * that cannot be reached make the service `degraded` (limits then hold per process only).
   */
  rateLimits?: { ok: boolean; detail: string } | null;
}

/** What a run recorded as fallen back (`summary.degraded`, written by the pipeline since issue 15). */
function degradedOf(run: PipelineRun): string[] {
  const list = run.summary.degraded;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

function runStatus(run: PipelineRun | null): RunStatus | null {
  if (!run) return null;
  const { run_id, source, status, started_at, finished_at, generation } = run;
  return { run_id, source, status, degraded: degradedOf(run), started_at, finished_at, generation };
}

function minutesBetween(from: string, to: Date): number {
  return Math.round((to.getTime() - Date.parse(from)) / 60_000);
}

function pipelineCheck(last: PipelineRun | null): Check {
  if (!last) return { name: 'pipeline', ok: false, detail: 'no pipeline run on record' };
  const what = `run ${last.run_id} (${last.source})`;
  switch (last.status) {
    case 'running':
      return { name: 'pipeline', ok: true, detail: `${what} running since ${last.started_at}` };
    case 'ok':
      return { name: 'pipeline', ok: true, detail: `${what} finished ok at ${last.finished_at}` };
    case 'partial': {
      const degraded = degradedOf(last);
      const parts = degraded.length > 0 ? degraded.join(', ') : 'a venue';
      return { name: 'pipeline', ok: false, detail: `${what} finished at ${last.finished_at}; fell back: ${parts}` };
    }
    case 'aborted': {
      const why = typeof last.summary.error === 'string' ? `: ${last.summary.error}` : '';
      return {
        name: 'pipeline',
        ok: false,
        detail: `${what} aborted (found at ${last.finished_at}; nothing of it was published)${why}`,
      };
    }
    default: {
      const error = typeof last.summary.error === 'string' ? `: ${last.summary.error}` : '';
      return { name: 'pipeline', ok: false, detail: `${what} failed at ${last.finished_at}${error}` };
    }
  }
}

/** One check per venue the last finished run reported on. */
function venueChecks(last: PipelineRun | null): Check[] {
  const venues = last?.summary.venues ?? {};
  return Object.entries(venues).map(([venue, v]) =>
    v?.error
      ? { name: venue, ok: false, detail: `not reached in run ${last?.run_id}: ${v.error}` }
      : { name: venue, ok: true, detail: `run ${last?.run_id}: ${v?.pulled ?? 0} pulled, ${v?.stored ?? 0} stored` },
  );
}

/** One informational check per venue whose pull was watched for drift (see the module comment). */
function driftChecks(last: PipelineRun | null): Check[] {
  const venues = last?.summary.venues ?? {};
  const out: Check[] = [];
  for (const [venue, v] of Object.entries(venues)) {
    const d = v?.drift;
    if (!d) continue;
    const k = d.kinds;
    const distinct = k.unknown_field.fields + k.missing_required.fields + k.type_mismatch.fields + k.pagination.fields;
    const checked = `run ${last?.run_id} checked ${d.checked.records} records (${d.checked.shapes} distinct field sets) against ${d.document}`;
    if (distinct === 0) {
      out.push({ name: `${venue}.drift`, ok: true, detail: `${checked}: no drift` });
      continue;
    }
    const top = d.examples[0];
    const most = top ? `; most frequent: ${top.record}.${top.field} ${top.kind} in ${top.records} records` : '';
    out.push({
      name: `${venue}.drift`,
      ok: false,
      detail:
        `${checked}: ${k.unknown_field.fields} unknown fields, ${k.missing_required.fields} missing required fields, ` +
        `${k.type_mismatch.fields} changed types, ${k.pagination.fields} pagination findings, in ${d.records_with_drift} records${most} ` +
        '(informational: the data was read)',
    });
  }
  return out;
}

function freshnessCheck(inputs: StatusInputs, published: PipelineRun | null): Check {
  if (inputs.model.dataSource === 'simulated') {
    return { name: 'freshness', ok: true, detail: 'simulated data: a fixed universe, its age is not judged' };
  }
  if (!published?.finished_at) return { name: 'freshness', ok: false, detail: 'no published run on record' };
  const age = minutesBetween(published.finished_at, inputs.now);
  const limit = 2 * inputs.refreshMinutes;
  return {
    name: 'freshness',
    ok: age <= limit,
    detail: `newest data published ${age} min ago (refresh every ${inputs.refreshMinutes} min; stale after ${limit})`,
  };
}

/** Judges the state from its inputs (pure). */
export function serviceStatus(inputs: StatusInputs): ServiceStatus {
  const { model, store } = inputs;
  const checks: Check[] = [];
  let degraded = false;
  let stale = false;
  if (!store.ok) {
    degraded = true;
    checks.push({ name: 'store', ok: false, detail: `cannot be read: ${store.error}` });
    checks.push({
      name: 'read_model',
      ok: true,
      detail: `serving generation ${model.generation}, built ${model.builtAt}, until the store answers`,
    });
  } else {
    checks.push({ name: 'store', ok: true, detail: `readable; newest published generation ${store.generation}` });
    const behind = model.generation < store.generation;
    stale ||= behind;
    checks.push({
      name: 'read_model',
      ok: !behind,
      detail: behind
        ? `serving generation ${model.generation} while the store holds ${store.generation}: a rebuild is due`
        : `serving generation ${model.generation}, built ${model.builtAt}`,
    });
    const pipeline = pipelineCheck(store.last);
    // A run in progress or aborted says nothing of the venues: judge them by the last published run.
    const finished =
      store.last?.status === 'running' || store.last?.status === 'aborted' ? store.lastPublished : store.last;
    const venues = venueChecks(finished);
    degraded ||= !pipeline.ok || venues.some((c) => !c.ok);
    // Drift is informational (see the module comment): listed, never a reason for degraded.
    checks.push(pipeline, ...venues, ...driftChecks(finished));
    const freshness = freshnessCheck(inputs, store.lastPublished);
    stale ||= !freshness.ok;
    checks.push(freshness);
  }
  if (inputs.rateLimits) {
    degraded ||= !inputs.rateLimits.ok;
    checks.push({ name: 'rate_limits', ...inputs.rateLimits });
  }
  const signals = model.signals;
  const spotRows = (model.spot.value() as { spot: Array<{ as_of: string }> }).spot;
  const newest = (values: string[]): string | null =>
    values.reduce<string | null>((a, b) => (a && a > b ? a : b), null);
  return {
    service: inputs.serviceName,
    as_of: inputs.now.toISOString(),
    schema_version: 'v0.2.0',
    state: degraded ? 'degraded' : stale ? 'stale' : 'ok',
    checks,
    dataset: {
      data_source: model.dataSource,
      generation: model.generation,
      store_generation: store.ok ? store.generation : null,
      built_at: model.builtAt,
      events: store.ok ? store.counts.events : model.counts.events,
      markets: store.ok ? store.counts.markets : model.counts.markets,
      marks: store.ok ? store.counts.marks : null,
      log: store.ok ? store.counts.log : null,
      signals: store.ok ? store.counts.signals : signals.length,
    },
    runs: {
      last: store.ok ? runStatus(store.last) : null,
      last_published: store.ok ? runStatus(store.lastPublished) : null,
    },
    non_core: {
      signals: { count: signals.length, newest_published_at: newest(signals.map((s) => s.published_at)) },
      spot: { coins: spotRows.length, newest_as_of: newest(spotRows.map((r) => r.as_of)) },
    },
    docs: `What each check means: ${inputs.origin}/openapi.json (getStatus). Docs: ${inputs.origin}/docs`,
  };
}

/** How long the status waits for the store before reporting it unreadable (a status must answer). */
const STORE_TIMEOUT_MS = 3000;

/**
 * Reads the store's side of the status; a store that cannot be read is a finding, not an error. The body names
 * only the error's code (a driver message can carry hosts and paths); `onError` gets the whole error.
 */
export async function readStoreView(
  store: Store,
  onError?: (err: unknown) => void,
  timeoutMs = STORE_TIMEOUT_MS,
): Promise<StoreView> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`no answer in ${timeoutMs} ms`), { code: 'TIMEOUT' })),
      timeoutMs,
    );
  });
  try {
    const [generation, counts, last, lastPublished] = await Promise.race([
      Promise.all([store.generation(), store.counts(), store.lastRun(), store.lastRun({ published: true })]),
      timeout,
    ]);
    return { ok: true, generation, counts, last, lastPublished };
  } catch (err) {
    onError?.(err);
    const code = (err as { code?: unknown }).code;
    return { ok: false, error: `${typeof code === 'string' ? code : 'error'}; the server log has the details` };
  } finally {
    clearTimeout(timer);
  }
}

/** Gathers the inputs and judges the state, per request. */
export class StatusService {
  constructor(
    private readonly store: Store,
    private readonly source: ReadModelSource,
    private readonly opts: {
      clock: () => Date;
      refreshMinutes: number;
      origin: string;
      serviceName?: string;
      onStoreError?: (err: unknown) => void;
      /** The rate-limit counters' health (see `StatusInputs.rateLimits`). */
      rateLimits?: () => { ok: boolean; detail: string } | null;
    },
  ) {}

  async status(): Promise<ServiceStatus> {
    const model = this.source.current();
    return serviceStatus({
      now: this.opts.clock(),
      refreshMinutes: this.opts.refreshMinutes,
      serviceName: this.opts.serviceName ?? 'pmref',
      origin: this.opts.origin,
      model,
      store: await readStoreView(this.store, this.opts.onStoreError),
      rateLimits: this.opts.rateLimits?.() ?? null,
    });
  }
}
