import { type ParseArgsConfig, parseArgs } from 'node:util';

/** One `pmref` subcommand. `run` returns the exit code. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

/** A usage mistake: the CLI prints the message and the command's usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** node:util parseArgs that turns its errors into UsageError. */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: T,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}
