/**
 * 200-response examples for /openapi.json taken from the live read model, so the documented examples are real
 * records of this deployment. Keyed by operationId; `__generation` tells the document when to rebuild.
 */
import type { QueryService } from '../serve/index.ts';

export function liveExamples(query: QueryService): Record<string, unknown> {
  const model = query.model();
  const out: Record<string, unknown> = { __generation: model.generation, getServiceInfo: query.serviceInfo().value() };
  out.getHealth = out.getServiceInfo;
  out.listEvents = query.listEvents({ limit: 1 }, false).value();
  const first = model.events[0];
  if (first) out.getEvent = query.getEvent(first.event.event_id, 'concise')?.value();
  const market = model.marketById.values().next();
  if (!market.done) out.getMarket = market.value.detail.value();
  out.listMovers = query.movers({ limit: 1 }).value();
  out.listUpcomingCatalysts = query.upcomingCatalysts({ days: 30 }).value();
  out.listSignals = query.listSignals({ limit: 1 }).value();
  const signal = model.signals[0];
  if (signal) out.getSignal = query.getSignal(signal.record_slug)?.value();
  if (model.spot.value<{ spot: unknown[] }>().spot.length > 0) out.getSpot = model.spot.value();
  out.listQuestions = query.listQuestions({ limit: 1 }).value();
  const pair = model.questions.list[0];
  if (pair) out.getQuestion = pair.detail.value();
  out.getStats = query.getStats().value();
  return out;
}
