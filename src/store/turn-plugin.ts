/**
 * Lets the event loop turn during long runs of statements (issue 18). better-sqlite3 answers synchronously, so
 * Kysely's promises settle as microtasks: a publish of the full simulated universe (about 1,500 statements, 5–10 s)
 * ran as one chain of microtasks in which no timer fired. In the pipeline thread that meant its heap guard
 * (pipeline/heap-guard.ts) never looked, and the write's garbage piled up until V8 collected on its own: the
 * process's RSS grew by about 450 MB through a first start's first publish (1,078 to 1,533 MB; 1,372 MB at most
 * with this plugin).
 *
 * This plugin makes a statement's result wait for the next turn of the event loop (`setImmediate`) when the
 * last turn was at least `everyMs` ago, so timers run about that often however long the statements go on. A turn
 * costs microseconds; nothing else changes (results pass through untouched, transactions stay open across it).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** How long statements may run back to back before the event loop turns. */
const TURN_EVERY_MS = 50;

export class EventLoopTurnPlugin implements KyselyPlugin {
  private lastTurn = performance.now();

  constructor(private readonly everyMs = TURN_EVERY_MS) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (performance.now() - this.lastTurn >= this.everyMs) {
      await nextTurn();
      this.lastTurn = performance.now();
    }
    return args.result;
  }
}
