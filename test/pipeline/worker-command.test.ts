// `pmref worker` runs its pipeline on the bounded pipeline thread, as `pmref start` does: the run's log lines come
// from that thread, the store gets the run, and SIGTERM stops the process (thread included) with exit code 0.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import { DAY1 } from './harness.ts';

const BIN = fileURLToPath(new URL('../../bin/pmref.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pmref-worker-cli-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface LogLine {
  msg?: string;
  cmd?: string;
  thread?: string;
}

describe('pmref worker', () => {
  it('runs the pipeline on its pipeline thread and stops on SIGTERM with exit code 0', async () => {
    const db = join(dir, 'worker.sqlite');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PMREF_DB_URL: `sqlite:${db}`,
      PMREF_SOURCE: 'replay',
      PMREF_REPLAY_DIR: DAY1,
      PMREF_LOG_LEVEL: 'info',
    };
    delete env.PMREF_METRICS_PORT;
    const child = spawn(process.execPath, [BIN, 'worker'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    const lines: LogLine[] = [];
    let rest = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = rest + chunk.toString('utf8');
      const parts = text.split('\n');
      rest = parts.pop() ?? '';
      for (const part of parts) {
        try {
          lines.push(JSON.parse(part) as LogLine);
        } catch {
          lines.push({ msg: part });
        }
      }
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const runLine = () => lines.find((l) => /^pipeline run \d+ ok/.test(l.msg ?? ''));
    for (let i = 0; i < 600 && runLine() === undefined && child.exitCode === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const run = runLine();
    expect(run, JSON.stringify(lines.slice(-5))).toBeDefined();
    // The run was made on the pipeline thread, whose lines name the command it belongs to.
    expect(run).toMatchObject({ cmd: 'worker', thread: 'pipeline' });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.some((l) => l.msg === 'worker stopping after the run in progress' && l.thread === undefined)).toBe(
      true,
    );

    const store = await openStore(`sqlite:${db}`);
    try {
      const last = await store.lastRun({ published: true });
      expect(last?.status).toBe('ok');
      expect((await store.listMarkets()).length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  }, 90_000);
});
