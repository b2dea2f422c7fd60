import { gradeCommand } from './grade.ts';
import { migrateCommand } from './migrate.ts';
import { replayCommand } from './replay.ts';
import { reportCommand } from './report.ts';
import { schemasCommand } from './schemas.ts';
import type { Command } from './types.ts';

/** Every `pmref` subcommand, in help order. Add a command by adding its file and one line here. */
export const COMMANDS: readonly Command[] = [
  migrateCommand,
  schemasCommand,
  replayCommand,
  gradeCommand,
  reportCommand,
];
