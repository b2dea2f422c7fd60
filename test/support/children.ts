/**
 * `pmref` commands run as child processes for the multi-process tests: their JSON log lines collected as they
 * come, their exit awaited, and every child still running stopped by PID when the test ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface LogLine {
  level?: number;
  time?: number;
  msg?: string;
  [field: string]: unknown;
}

export interface PmrefChild {
  name: string;
  proc: ChildProcess;
  pid: number;
  /** Parsed JSON lines of stderr (pino), in order. */
  logs: LogLine[];
  /** Raw stdout. */
  stdout(): string;
  /** Raw stderr (the last 8 KB), for failure messages. */
  stderrTail(): string;
  /** The exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
}

/** Spawns `node bin/pmref.js <args>` from the repository root with `env` added to this process's environment. */
export function spawnPmref(name: string, args: string[], env: Record<string, string>): PmrefChild {
  const proc = spawn(process.execPath, ['bin/pmref.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (proc.pid === undefined) throw new Error(`${name}: could not spawn pmref ${args.join(' ')}`);
  const logs: LogLine[] = [];
  let out = '';
  let err = '';
  let partial = '';
  let done = false;
  proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err = (err + chunk).slice(-8192);
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        // not a log line
      }
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  return {
    name,
    proc,
    pid: proc.pid,
    logs,
    stdout: () => out,
    stderrTail: () => err,
    exited,
    alive: () => !done,
  };
}

/** Kills every child still running (SIGKILL by PID) and waits for each to go. */
export async function killAll(children: PmrefChild[]): Promise<void> {
  await Promise.all(
    children.map(async (c) => {
      if (!c.alive()) return;
      c.proc.kill('SIGKILL');
      await c.exited;
    }),
  );
}
