/**
 * The query service: the one API of the data (DESIGN.md §5). REST routes, MCP tools and A2A skills call these
 * methods and translate; none of them reads the store. Every answer is a `Body` (bytes + ETag) taken from the
 * current read model; values are available through `Body.value()`.
 */
import {
  CATEGORIES,
  EVENT_STATUS_FILTERS,
  type EventListItem,
  type EventPage,
  GRADES,
  LIST_SORTS,
  type ListNotice,
  type ListSort,
  type MarketDetail,
  type MarketPage,
  type QuestionComparison,
  type QuestionPage,
  SIGNAL_KINDS,
  type Stats,
  VENUES,
} from '../domain/index.ts';
import { type EventFilters, selectEvents } from './event-search.ts';
import { Body, etagFor, objectWithArray, prependKeys, prettyAt } from './json-bytes.ts';
import { conciseMarketDetail } from './market-concise.ts';
import { findMarketsIn, GRADE_BITS, type MarketQuery, marketQueryKey, parseMarketQuery } from './market-list.ts';
import { resolveMarketRef } from './market-ref.ts';
import { clampInt, clampMinMult, clampOffset, type Raw, str } from './params.ts';
import {
  findQuestionsIn,
  parseQuestionQuery,
  type QuestionQuery,
  questionComparison,
  questionEntry,
  questionListBody,
  questionQueryKey,
} from './questions.ts';
import type { ReadModel } from './read-model.ts';

export interface ReadModelSource {
  /** The current read model; never waits for a rebuild. */
  current(): ReadModel;
}

export interface EventQuery {
  category?: Raw;
  platform?: Raw;
  grade?: Raw;
  q?: Raw;
  status?: Raw;
  limit?: Raw;
  offset?: Raw;
  /** Issue 17: relevance (default with `q`; without it, the list order), rcg_score, volume, close_at. */
  sort?: Raw;
  /** Issue 17: any market of the event has this grade (`grade` is the headline market's). */
  grade_any?: Raw;
}

export interface SignalQuery {
  detection_path?: Raw;
  category?: Raw;
  venue?: Raw;
  event_id?: Raw;
  limit?: Raw;
}

/** Upper bound on cached assembled responses per generation (each is a few KB to ~100 KB). */
const CACHE_LIMIT = 2000;

function cached(model: ReadModel, key: string, make: () => Body): Body {
  const hit = model.cache.get(key);
  if (hit) return hit;
  const body = make();
  if (model.cache.size >= CACHE_LIMIT) {
    const oldest = model.cache.keys().next();
    if (!oldest.done) model.cache.delete(oldest.value);
  }
  model.cache.set(key, body);
  return body;
}

function listText(s: Raw): string {
  return s === undefined || s === null ? '' : String(s);
}

/**
 * The parsed parameters of an event list: filters for `selectEvents`, notices of unknown or clamped values
 * (served-shapes §3 keys), the page bounds and a cache key.
 */
function eventListing(query: EventQuery) {
  const category = str(query.category)?.toLowerCase();
  const platform = str(query.platform)?.toLowerCase();
  const grade = str(query.grade)?.toUpperCase();
  const gradeAny = str(query.grade_any);
  const gradeAnyNorm =
    gradeAny === undefined ? undefined : gradeAny.toLowerCase() === 'pending' ? 'pending' : gradeAny.toUpperCase();
  const q = str(query.q)?.trim() || undefined;
  const status = str(query.status)?.toLowerCase();
  const sortRaw = str(query.sort)?.toLowerCase();
  const sort: ListSort = (LIST_SORTS as readonly string[]).includes(sortRaw ?? '')
    ? (sortRaw as ListSort)
    : 'relevance';
  const limit = clampInt('limit', query.limit, 50, 1, 100);
  const offset = clampOffset(query.offset);
  const notices: Record<string, unknown> = {};
  if (category !== undefined && !(CATEGORIES as readonly string[]).includes(category)) {
    notices.category_notice = `"${str(query.category)}" is not a category; valid: ${CATEGORIES.join(', ')}.`;
    notices.valid_categories = [...CATEGORIES];
  }
  if (platform !== undefined && !(VENUES as readonly string[]).includes(platform)) {
    notices.platform_notice = `"${str(query.platform)}" is not a platform; valid: ${VENUES.join(', ')}.`;
    notices.valid_platforms = [...VENUES];
  }
  if (grade !== undefined && !(GRADES as readonly string[]).includes(grade)) {
    notices.grade_notice = `"${str(query.grade)}" is not a grade; valid: ${GRADES.join(', ')}.`;
    notices.valid_grades = [...GRADES];
  }
  if (gradeAnyNorm !== undefined && !([...GRADES, 'pending'] as readonly string[]).includes(gradeAnyNorm)) {
    notices.grade_any_notice = `"${gradeAny}" is not a grade; valid: ${GRADES.join(', ')}, pending.`;
    notices.valid_grades = [...GRADES, 'pending'];
  }
  if (status !== undefined && !(EVENT_STATUS_FILTERS as readonly string[]).includes(status)) {
    notices.status_notice = `"${str(query.status)}" is not a status; valid: ${EVENT_STATUS_FILTERS.join(', ')}.`;
    notices.valid_statuses = [...EVENT_STATUS_FILTERS];
  }
  if (sortRaw !== undefined && sort !== sortRaw) {
    notices.sort_notice = `sort "${str(query.sort)}" is not known; valid: ${LIST_SORTS.join(', ')}. Used relevance.`;
    notices.valid_sorts = [...LIST_SORTS];
  }
  if (limit.notice) notices.limit_notice = `${limit.notice} Page with offset.`;
  if (offset.notice) notices.offset_notice = offset.notice;
  // An unknown grade_any value filters everything out (like the other filters); the notice names the valid set.
  const filters: EventFilters = {
    category,
    platform,
    grade,
    gradeAny: gradeAnyNorm === undefined ? undefined : gradeAnyNorm in GRADE_BITS ? gradeAnyNorm : '?',
    q,
    status,
    sort,
  };
  const key = JSON.stringify([
    category,
    platform,
    grade,
    gradeAnyNorm,
    q,
    status,
    sortRaw,
    listText(query.limit),
    listText(query.offset),
  ]);
  return { filters, notices, limit: limit.value, offset: offset.value, key };
}

/**
 * The `notice` of an event listing: unknown filter values first (they alone explain an empty page; their
 * `*_notice` fields name the valid sets), then what the selection said, then an unknown sort.
 */
function eventListNotice(notices: Record<string, unknown>, selected: ListNotice | null): ListNotice | null {
  const unknown = Object.entries(notices).filter(
    ([k]) => k.endsWith('_notice') && k !== 'limit_notice' && k !== 'offset_notice' && k !== 'sort_notice',
  );
  if (unknown.length > 0) {
    return { reason: unknown.map(([, v]) => String(v)).join(' '), try: ['the values named in the reason'] };
  }
  if (selected) return selected;
  return notices.sort_notice ? { reason: String(notices.sort_notice), try: [...LIST_SORTS] } : null;
}

/** The query service over whatever read model `source` currently holds. */
export class QueryService {
  constructor(
    private readonly source: ReadModelSource,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  model(): ReadModel {
    return this.source.current();
  }

  /** `GET /` (served-shapes §2). */
  serviceInfo(): Body {
    return this.model().info;
  }

  /**
   * `GET /v1/events` (served-shapes §3): filters, `q` (search/engine.ts), `grade_any`, `sort`, pages by
   * offset/limit. Unknown filter values still run (an empty page) and add a notice naming the valid set;
   * out-of-range limit/offset clamp with a notice; an empty or partial search says why in `notice`.
   */
  listEvents(query: EventQuery, keyed: boolean): Body {
    const model = this.model();
    const listing = eventListing(query);
    const key = `events|${listing.key}|${keyed}`;
    return cached(model, key, () => {
      const { indices, notice } = selectEvents(model, listing.filters);
      // An empty page says why: the unknown filter values when there are some.
      const shown = indices.length === 0 ? eventListNotice(listing.notices, notice) : notice;
      const page = indices.slice(listing.offset, listing.offset + listing.limit);
      const head = {
        count: page.length,
        total: indices.length,
        limit: listing.limit,
        offset: listing.offset,
        keyed,
        ...listing.notices,
        ...(shown ? { notice: shown } : {}),
        _notice: model.notice,
      };
      const text = objectWithArray(
        head,
        'events',
        page.map((i) => model.events[i]?.item ?? '{}'),
      );
      return new Body(text, etagFor(model.generation, key));
    });
  }

  /** Events for a query as plain data (MCP, A2A, HTML pages): the same selection as `listEvents`. */
  findEvents(query: EventQuery): EventPage {
    const model = this.model();
    const listing = eventListing(query);
    const { indices, notice } = selectEvents(model, listing.filters);
    const events = indices
      .slice(listing.offset, listing.offset + listing.limit)
      .map((i) => JSON.parse(model.events[i]?.item ?? '{}') as EventListItem);
    return {
      total: indices.length,
      count: events.length,
      limit: listing.limit,
      offset: listing.offset,
      notice: eventListNotice(listing.notices, notice),
      events,
    };
  }

  /** Markets for a query as plain data (MCP `search_markets`, A2A, HTML). Throws MarketQueryError (REST: 400). */
  findMarkets(query: MarketQuery): MarketPage {
    return findMarketsIn(this.model().catalog, parseMarketQuery(query));
  }

  /** `GET /v1/markets` (issue 17). Throws MarketQueryError on a malformed number or date (REST: 400). */
  listMarkets(query: MarketQuery, keyed: boolean): Body {
    const model = this.model();
    const parsed = parseMarketQuery(query);
    const key = `${marketQueryKey(parsed)}|${keyed}`;
    return cached(model, key, () => {
      const page = findMarketsIn(model.catalog, parsed);
      const { markets, ...head } = page;
      const text = objectWithArray(
        { ...head, keyed, _notice: model.notice },
        'markets',
        markets.map((m) => prettyAt(m, 2)),
      );
      return new Body(text, etagFor(model.generation, key));
    });
  }

  /**
   * `GET /v1/events/{slug}`: by slug or event id; `detail=concise` trims markets. An unknown `detail` value
   * serves the full view with a notice naming the valid values. Null when no published event matches.
   */
  getEvent(slugOrId: string, detail?: Raw): Body | null {
    const model = this.model();
    const entry = model.eventByKey.get(slugOrId);
    if (!entry) return null;
    const d = str(detail);
    if (d === undefined || d === 'full') return entry.full;
    if (d === 'concise') return entry.concise;
    return cached(model, `event-detail|${entry.event.event_id}|${d}`, () => {
      const text = prependKeys(entry.full.bytes.toString('utf8'), {
        detail_notice: `detail "${d}" is not known; valid: full, concise. Served the full view.`,
        valid_details: ['full', 'concise'],
      });
      return new Body(text, etagFor(model.generation, `e:${entry.event.event_id}:${d}`));
    });
  }

  /**
   * `GET /v1/markets/{id}`: service id, venue id or ticker, or venue market URL (parsed, never fetched).
   * `detail=concise` (issue 17, the MCP default) is built from the full detail on first ask and cached for the
   * generation; an unknown `detail` serves the full view with a notice, as `getEvent` does.
   */
  getMarket(ref: string, detail?: Raw): Body | null {
    const model = this.model();
    const entry = resolveMarketRef(ref, model.marketById, model.marketByNative);
    if (!entry) return null;
    const d = str(detail);
    if (d === undefined || d === 'full') return entry.detail;
    if (d === 'concise') {
      return cached(model, `market-concise|${entry.marketId}`, () => {
        const full = entry.detail.value<MarketDetail>();
        const value = conciseMarketDetail(full, {
          origin: model.origin,
          dataSource: model.dataSource,
          event: this.eventRef(model, full.event_id),
          priceAsOf: (id) => model.marketById.get(id)?.detail.value<MarketDetail>().price_as_of ?? null,
        });
        return new Body(JSON.stringify(value, null, 2), etagFor(model.generation, `m:${entry.marketId}:concise`));
      });
    }
    return cached(model, `market-detail|${entry.marketId}|${d}`, () => {
      const text = prependKeys(entry.detail.bytes.toString('utf8'), {
        detail_notice: `detail "${d}" is not known; valid: full, concise. Served the full view.`,
        valid_details: ['full', 'concise'],
      });
      return new Body(text, etagFor(model.generation, `m:${entry.marketId}:${d}`));
    });
  }

  private eventRef(
    model: ReadModel,
    eventId: string | null,
  ): { event_id: string; slug: string; question: string } | null {
    const event = eventId === null ? undefined : model.eventByKey.get(eventId)?.event;
    return event ? { event_id: event.event_id, slug: event.slug, question: event.question } : null;
  }

  /** `GET /v1/markets/movers` (served-shapes §6). */
  movers(query: { min_mult?: Raw; limit?: Raw }): Body {
    const model = this.model();
    const minMult = clampMinMult(query.min_mult);
    const limit = clampInt('limit', query.limit, 50, 1, 200);
    const key = `movers|${minMult.value}|${limit.value}|${minMult.notice ?? ''}|${limit.notice ?? ''}`;
    return cached(model, key, () => {
      const notices: Record<string, string> = {};
      if (minMult.notice) notices.min_mult_notice = minMult.notice;
      if (limit.notice) notices.limit_notice = limit.notice;
      const m = model.movers;
      if (m.status === 'degraded') {
        const body = {
          metric: 'volume_24h',
          min_mult: minMult.value,
          count: 0,
          notice: m.notice,
          ...notices,
          movers: [],
        };
        return new Body(JSON.stringify(body, null, 2), etagFor(model.generation, key));
      }
      const picked = m.movers.filter((x) => x.mult >= minMult.value).slice(0, limit.value);
      const head = {
        metric: 'volume_24h',
        day: m.day,
        prior_day: m.prior_day,
        min_mult: minMult.value,
        count: picked.length,
        ...notices,
        _notice: model.moversNotice,
      };
      const items = picked.map(({ mult: _mult, ...mover }) => prettyAt(mover, 2));
      return new Body(objectWithArray(head, 'movers', items), etagFor(model.generation, key));
    });
  }

  /** `GET /v1/catalysts/upcoming` (served-shapes §7): today (UTC) to today + days, inclusive, date ascending. */
  upcomingCatalysts(query: { days?: Raw }): Body {
    const model = this.model();
    const days = clampInt('days', query.days, 30, 1, 365);
    const now = this.clock();
    const from = now.toISOString().slice(0, 10);
    const to = new Date(now.getTime() + days.value * 86_400_000).toISOString().slice(0, 10);
    const key = `catalysts|${from}|${days.value}|${days.notice ?? ''}`;
    return cached(model, key, () => {
      const items = model.catalysts
        .filter((c) => c.date >= from && c.date <= to)
        .map((c) => ({ date: c.date, type: c.type, label: c.label, source_url: c.source_url }));
      const head = {
        window_days: days.value,
        from,
        to,
        count: items.length,
        ...(days.notice ? { days_notice: days.notice } : {}),
        _notice: model.notice,
      };
      return new Body(
        objectWithArray(
          head,
          'catalysts',
          items.map((i) => prettyAt(i, 2)),
        ),
        etagFor(model.generation, key),
      );
    });
  }

  /** `GET /v1/signals` (served-shapes §8): newest first; `count` counts matches before `limit`. */
  listSignals(query: SignalQuery): Body {
    const model = this.model();
    const path = str(query.detection_path);
    const category = str(query.category)?.toUpperCase();
    const venue = str(query.venue)?.toLowerCase();
    const eventId = str(query.event_id);
    const limit = clampInt('limit', query.limit, 100, 1, 200);
    const key = `signals|${path ?? ''}|${category ?? ''}|${venue ?? ''}|${eventId ?? ''}|${listText(query.limit)}`;
    return cached(model, key, () => {
      const notices: Record<string, string> = {};
      if (path !== undefined && !(SIGNAL_KINDS as readonly string[]).includes(path)) {
        notices.detection_path_notice = `"${path}" is not a detection path; valid: ${SIGNAL_KINDS.join(', ')}.`;
      }
      if (venue !== undefined && !(VENUES as readonly string[]).includes(venue)) {
        notices.venue_notice = `"${venue}" is not a venue; valid: ${VENUES.join(', ')}.`;
      }
      if (limit.notice) notices.limit_notice = limit.notice;
      const matches = model.signals.filter(
        (s) =>
          (path === undefined || s.detection_path === path) &&
          (category === undefined || s.category_tag === category) &&
          (venue === undefined || (s.venues as readonly string[]).includes(venue)) &&
          (eventId === undefined || s.target_event_id === eventId || s.linked_event_ids.includes(eventId)),
      );
      const items = matches.slice(0, limit.value).map((s) =>
        prettyAt(
          {
            record_id: s.record_id,
            record_slug: s.record_slug,
            published_at: s.published_at,
            headline: s.headline,
            category_tag: s.category_tag,
            detection_path: s.detection_path,
            target_event_id: s.target_event_id,
            target_event_slug: s.target_event_slug,
            linked_event_ids: s.linked_event_ids,
            venues: s.venues,
            html: `${model.origin}/signals/${s.record_slug}.html`,
            json: `${model.origin}/v1/signals/${s.record_slug}`,
          },
          2,
        ),
      );
      const head = { count: matches.length, ...notices, _notice: model.notice };
      return new Body(objectWithArray(head, 'signals', items), etagFor(model.generation, key));
    });
  }

  /** `GET /v1/signals/{slug}`: the stored bulletin, unchanged. Null for an unknown slug. */
  getSignal(slug: string): Body | null {
    return this.model().signalBySlug.get(slug) ?? null;
  }

  /** `GET /v1/spot` (served-shapes §9). */
  spot(): Body {
    return this.model().spot;
  }

  // --- issue 17: cross-venue questions and stats (logic in questions.ts and stats.ts) ---

  /** Cross-venue pairs as plain data. Throws QuestionQueryError on a malformed number (REST: 400). */
  findQuestions(query: QuestionQuery): QuestionPage {
    return findQuestionsIn(this.model().questions, parseQuestionQuery(query));
  }

  /** `GET /v1/questions`. Throws QuestionQueryError on a malformed number (REST: 400). */
  listQuestions(query: QuestionQuery): Body {
    const model = this.model();
    const parsed = parseQuestionQuery(query);
    return cached(model, questionQueryKey(parsed), () =>
      questionListBody(model.questions, parsed, { generation: model.generation, notice: model.notice }),
    );
  }

  /** One pair side by side as plain data, by pair id or question_id; null when unknown. */
  question(id: string): QuestionComparison | null {
    return questionComparison(this.model().questions, id);
  }

  /** `GET /v1/questions/{id}`; null when unknown. */
  getQuestion(id: string): Body | null {
    return questionEntry(this.model().questions, id)?.detail ?? null;
  }

  /** Catalog statistics as plain data. */
  statsData(): Stats {
    return this.model().stats.data;
  }

  /** `GET /v1/stats`. */
  getStats(): Body {
    return this.model().stats.body;
  }
}
