import { benchCommand } from './bench.ts';
import { canonCommand } from './canon.ts';
import { exportCommand } from './export.ts';
import { gradeCommand } from './grade.ts';
import { ingestCommand } from './ingest.ts';
import { migrateCommand } from './migrate.ts';
import { replayCommand } from './replay.ts';
import { reportCommand } from './report.ts';
import { schemasCommand } from './schemas.ts';
import { serveCommand } from './serve.ts';
import { simulateCommand } from './simulate.ts';
import { startCommand } from './start.ts';
import type { Command } from './types.ts';
import { venueShapesCommand } from './venue-shapes.ts';
import { workerCommand } from './worker.ts';

/** Every `pmref` subcommand, in help order. Add a command by adding its file and one line here. */
export const COMMANDS: readonly Command[] = [
  startCommand,
  serveCommand,
  workerCommand,
  ingestCommand,
  replayCommand,
  simulateCommand,
  gradeCommand,
  canonCommand,
  reportCommand,
  exportCommand,
  migrateCommand,
  schemasCommand,
  venueShapesCommand,
  benchCommand,
];
