/** Every REST route, in the order of spec §4, then the probes. The only place that lists them. */
import type { App, AppContext } from '../context.ts';
import { registerA2a } from './agents.a2a.ts';
import { registerMcp } from './agents.mcp.ts';
import { registerUpcomingCatalysts } from './catalysts.upcoming.ts';
import { registerListChanges } from './changes.list.ts';
import { registerStreamChanges } from './changes.stream.ts';
import { registerGetEvent } from './events.get.ts';
import { registerListEvents } from './events.list.ts';
import { registerGetHealthz } from './healthz.get.ts';
import { registerCreateKey } from './keys.create.ts';
import { registerGetMarket } from './markets.get.ts';
import { registerGetMarketHistory } from './markets.history.ts';
import { registerListMarkets } from './markets.list.ts';
import { registerMovers } from './markets.movers.ts';
import { registerListMarks } from './marks.list.ts';
import { registerGetQuestion } from './questions.get.ts';
import { registerListQuestions } from './questions.list.ts';
import { type ReadinessOptions, registerGetReadyz } from './readyz.get.ts';
import { registerResolve } from './resolve.get.ts';
import { registerGetRoot } from './root.get.ts';
import { registerGetSignal } from './signals.get.ts';
import { registerListSignals } from './signals.list.ts';
import { registerSignalsRss } from './signals-rss.get.ts';
import { registerSitePages } from './site.pages.ts';
import { registerGetSpot } from './spot.get.ts';
import { registerGetStats } from './stats.get.ts';
import { registerGetStatus } from './status.get.ts';

export const ROUTE_REGISTRARS = [
  registerGetRoot,
  registerListEvents,
  registerGetEvent,
  registerListMarkets,
  registerGetMarket,
  registerGetMarketHistory,
  registerMovers,
  registerResolve,
  registerUpcomingCatalysts,
  registerListSignals,
  registerGetSignal,
  registerSignalsRss,
  registerGetSpot,
  registerListQuestions,
  registerGetQuestion,
  registerGetStats,
  registerGetStatus,
  registerListMarks,
  registerListChanges,
  registerStreamChanges,
  registerCreateKey,
  registerMcp,
  registerA2a,
  registerSitePages,
] as const;

/**
 * Registers every route. The probes (`/healthz`, `/readyz`, issue 19) come after the REST routes: `/readyz`
 * also judges what the serving command knows (draining, the holder's facts), passed as `readiness`.
 */
export function registerRoutes(app: App, ctx: AppContext, readiness: ReadinessOptions): void {
  for (const register of ROUTE_REGISTRARS) register(app, ctx);
  registerGetHealthz(app);
  registerGetReadyz(app, ctx, readiness);
}
