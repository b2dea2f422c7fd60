/**
 * `GET /readyz`: readiness, for load balancers and orchestrators. 200 `{"ready": true, …}` when this process
 * serves a published generation whose data is no older than PMREF_READY_MAX_AGE_MINUTES; otherwise 503 with
 * `ready: false` and a `reason` in words. What it says in each state:
 *
 * - `pmref start`, first start on an empty store: until the first run has published, an interim listener on the same
 *   address answers (first-start-server.ts): 503 with the run's stage in `reason`, generation 0; then 200.
 * - `pmref serve` (or `start` after a first run that published nothing) on a store with no published run:
 *   503, generation 0, "no generation published yet".
 * - serving a published generation within the bound: 200. A rebuild that failed meanwhile is reported
 *   (`rebuild_failed_at`) but does not make the process unready while the data it still serves is young enough.
 * - the served data past the bound (the pipeline stopped publishing, or this process's rebuilds keep failing
 *   while the store moves on: the reason says which it knows): 503.
 * - simulated data (a fixed universe whose runs carry the simulated clock, as /v1/status treats it): its age is
 *   not judged (`max_age_s: null`); ready once published.
 * - draining after SIGTERM/SIGINT: 503 "shutting down" at once, on connections still open, so a balancer stops
 *   sending while in-flight requests finish (new connections are refused by then).
 *
 * The age is the time since the run that published the served data finished (the read-model holder reads it
 * just before each build), not the time this process built its model: a replica that starts today on a store
 * whose last run was a week ago serves week-old data. Not metered (metering.ts meters `/` and `/v1/*` only).
 */
import { z } from 'zod';
import { DataSourceSchema } from '../../domain/index.ts';
import type { ReadModel } from '../../serve/index.ts';
import type { App, AppContext } from '../context.ts';
import { sendJson } from '../send.ts';
import { errorResponses } from './schemas.ts';

const dateTime = () => z.iso.datetime({ offset: true });

export const ReadyzSchema = z
  .object({
    ready: z.boolean().describe('true: send traffic here. false: the status is 503 and `reason` says why.'),
    reason: z
      .string()
      .nullable()
      .describe(
        'Why this process is not ready: shutting down, no generation published yet, or the served data is older than the bound. null when ready.',
      ),
    generation: z.number().int().describe('The generation served (0: nothing published yet).'),
    data_source: DataSourceSchema.nullable().describe('Where the served data comes from; null before any run.'),
    published_at: dateTime()
      .nullable()
      .describe('When the pipeline run that published the served data finished; null when none has.'),
    age_s: z
      .number()
      .int()
      .nullable()
      .describe(
        'Seconds since published_at (0 if the clocks of the worker and this server disagree); null when unknown.',
      ),
    max_age_s: z
      .number()
      .int()
      .nullable()
      .describe(
        'The bound age_s is judged against (PMREF_READY_MAX_AGE_MINUTES); null when age is not judged (simulated data).',
      ),
    built_at: dateTime().describe('When this process built (or loaded) the read model it serves.'),
    rebuild_failed_at: dateTime()
      .nullable()
      .describe('When the latest read-model rebuild failed, if none has succeeded since (the log says why).'),
  })
  .meta({
    example: {
      ready: true,
      reason: null,
      generation: 42,
      data_source: 'live',
      published_at: '2026-11-22T09:00:58.000Z',
      age_s: 1142,
      max_age_s: 10800,
      built_at: '2026-11-22T09:01:03.000Z',
      rebuild_failed_at: null,
    },
  });
export type Readyz = z.infer<typeof ReadyzSchema>;

/** What the read-model holder knows of the served data beyond the model (read-model-holder.ts `served()`). */
export interface ServedFacts {
  publishedAt: string | null;
  rebuildFailedAt: string | null;
}

/** Where `/readyz` learns what it judges; passed to buildApp by the serving command. */
export interface ReadinessOptions {
  /** PMREF_READY_MAX_AGE_MINUTES. */
  maxAgeMinutes: number;
  /** True from the moment a graceful stop begins. */
  draining: () => boolean;
  /** The holder's facts; null for a fixed model, whose data age is unknown (so it is never judged fresh). */
  served: (() => ServedFacts) | null;
}

export interface ReadinessInputs {
  now: Date;
  maxAgeMinutes: number;
  draining: boolean;
  model: Pick<ReadModel, 'generation' | 'builtAt' | 'dataSource'>;
  served: ServedFacts | null;
}

/** The reason data past the bound is not ready, with what is known of why it is old. */
function staleReason(ageS: number, maxAgeS: number, rebuildFailedAt: string | null): string {
  const minutes = (s: number) => `${Math.floor(s / 60)} min`;
  const why =
    rebuildFailedAt === null
      ? 'no newer generation has reached this server'
      : `the last read-model rebuild failed at ${rebuildFailedAt} (see the log)`;
  return `the served data was published ${minutes(ageS)} ago, over the ${minutes(maxAgeS)} bound (PMREF_READY_MAX_AGE_MINUTES): ${why}`;
}

/**
 * Judges readiness (pure): draining first, then nothing published, then the age of the data.
 *
 * @example judgeReadiness({ now, maxAgeMinutes: 180, draining: true, model, served }).reason // 'shutting down: …'
 */
export function judgeReadiness(inputs: ReadinessInputs): Readyz {
  const { model, served } = inputs;
  const publishedAt = served?.publishedAt ?? null;
  const ageS =
    publishedAt === null ? null : Math.max(0, Math.floor((inputs.now.getTime() - Date.parse(publishedAt)) / 1000));
  const judged = model.dataSource !== 'simulated';
  const maxAgeS = judged ? inputs.maxAgeMinutes * 60 : null;
  let reason: string | null = null;
  if (inputs.draining) reason = 'shutting down: in-flight requests are finishing; send new ones elsewhere';
  else if (model.generation === 0) reason = 'no generation published yet: the store holds no published pipeline run';
  else if (maxAgeS !== null && ageS === null) reason = 'the age of the served data is unknown';
  else if (maxAgeS !== null && ageS !== null && ageS > maxAgeS)
    reason = staleReason(ageS, maxAgeS, served?.rebuildFailedAt ?? null);
  return {
    ready: reason === null,
    reason,
    generation: model.generation,
    data_source: model.dataSource,
    published_at: publishedAt,
    age_s: ageS,
    max_age_s: maxAgeS,
    built_at: model.builtAt,
    rebuild_failed_at: served?.rebuildFailedAt ?? null,
  };
}

export const getReadyzRoute = {
  method: 'GET',
  url: '/readyz',
  schema: {
    operationId: 'getReadyz',
    tags: ['service'],
    summary: 'Readiness probe',
    description:
      '200 when this process serves a published generation whose data is no older than the configured bound ' +
      '(PMREF_READY_MAX_AGE_MINUTES, default 180; simulated data is not judged by age); 503 with `reason` ' +
      'when nothing is published yet, the data is older than the bound, or the process is shutting down. ' +
      'Computed per request; never cached. Not metered.',
    response: {
      200: ReadyzSchema,
      503: ReadyzSchema.describe('Not ready: `ready` is false and `reason` says why.'),
      500: errorResponses()[500],
    },
  },
} as const;

export function registerGetReadyz(app: App, ctx: AppContext, opts: ReadinessOptions): void {
  app.route({
    ...getReadyzRoute,
    handler: async (req, reply) => {
      const body = judgeReadiness({
        now: ctx.clock(),
        maxAgeMinutes: opts.maxAgeMinutes,
        draining: opts.draining(),
        model: ctx.query.model(),
        served: opts.served?.() ?? null,
      });
      return sendJson(req, reply, body.ready ? 200 : 503, body);
    },
  });
}
