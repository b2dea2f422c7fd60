/**
 * Progress of an ingest as the user sees it: a one-line bar on a terminal, structured log lines
 * otherwise (at most one per second per stage, plus every stage's start and end).
 */
import { performance } from 'node:perf_hooks';
import type { PipelineLogger, ProgressEvent, ProgressListener } from './types.ts';

export interface ProgressReporter {
  listener: ProgressListener;
  /** Clears the bar line (call before printing the summary). */
  finish(): void;
}

const STAGE_LABEL: Record<ProgressEvent['stage'], string> = {
  generate: 'generating simulated universe',
  pull: 'pulling venues',
  normalize: 'normalizing',
  editorial: 'editorial',
  diff: 'diffing',
  write: 'writing',
  backfill: 'fetching price history',
  after_write: 'signals',
  publish: 'publishing',
};

/** One progress event in words, e.g. "editorial 1200/39200 (snapshot 2 of 15)". */
export function describeProgress(e: ProgressEvent): string {
  const run = e.run ? ` (${e.run.label}, run ${e.run.index} of ${e.run.count})` : '';
  return `${STAGE_LABEL[e.stage]} ${e.done}/${e.total}${run}`;
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** A bar renderer writing to a TTY stream (stderr: stdout stays for results). */
export function ttyProgress(stream: NodeJS.WriteStream, width = 28): ProgressReporter {
  const t0 = performance.now();
  let stageStart = t0;
  let lastStage = '';
  let lastDraw = 0;
  let drawn = false;
  return {
    listener(e) {
      const key = `${e.run?.index ?? 0}:${e.stage}`;
      const now = performance.now();
      if (key !== lastStage) {
        lastStage = key;
        stageStart = now;
      }
      if (now - lastDraw < 80 && e.done !== e.total) return;
      lastDraw = now;
      const frac = e.total > 0 ? Math.min(1, e.done / e.total) : 0;
      const filled = Math.round(frac * width);
      const eta = frac > 0.02 && frac < 1 ? ` · ~${seconds(((now - stageStart) / frac) * (1 - frac))} left` : '';
      const run = e.run ? `[${e.run.index}/${e.run.count} ${e.run.label}] ` : '';
      const line = `${run}${STAGE_LABEL[e.stage].padEnd(30)} ${'█'.repeat(filled)}${'░'.repeat(width - filled)} ${e.done}/${e.total} · ${seconds(now - t0)}${eta}`;
      stream.write(`\r\x1b[2K${line}`);
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}

/** Structured progress lines through the logger: stage start, stage end, and at most one a second between. */
export function logProgress(logger: PipelineLogger): ProgressReporter {
  let lastKey = '';
  let lastAt = 0;
  return {
    listener(e) {
      const key = `${e.run?.index ?? 0}:${e.stage}`;
      const now = performance.now();
      const boundary = key !== lastKey || e.done === e.total;
      if (!boundary && now - lastAt < 1000) return;
      if (key === lastKey && e.done !== e.total && now - lastAt < 1000) return;
      lastKey = key;
      lastAt = now;
      logger.info(
        {
          stage: e.stage,
          done: e.done,
          total: e.total,
          ...(e.run ? { run: e.run.index, of: e.run.count, snapshot: e.run.label } : {}),
        },
        `progress: ${STAGE_LABEL[e.stage]} ${e.done}/${e.total}`,
      );
    },
    finish() {},
  };
}
