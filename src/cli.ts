/**
 * The `pmref` command. Exit codes: 0 success, 1 failure, 2 usage error.
 * Each subcommand lives in src/commands/<name>.ts; this file only dispatches.
 */
import { COMMANDS } from './commands/index.ts';
import { type Command, UsageError } from './commands/types.ts';
import { ConfigError } from './config.ts';

function topHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const rows = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `pmref — reference data for prediction markets (interface 0.2.0)

Usage: pmref <command> [options]

Commands:
${rows}

Run 'pmref <command> --help' for a command's options. Settings come from the environment (see README).
`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(topHelp());
    return name === undefined ? 2 : 0;
  }
  const command: Command | undefined = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`pmref: unknown command '${name}'\n\n${topHelp()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage.trim()}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`pmref ${command.name}: ${err.message}\n\n${command.usage.trim()}\n`);
      return 2;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`pmref: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`pmref ${command.name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  }
}
