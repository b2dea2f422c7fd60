/**
 * The query service: the one API of the data (DESIGN.md §5). REST routes, MCP tools and A2A skills call these
 * methods and translate; none of them reads the store. Every answer is a `Body` (bytes + ETag) taken from the
 * current read model; values are available through `Body.value()`.
 */
import { CATEGORIES, EVENT_STATUS_FILTERS, GRADES, SIGNAL_KINDS, VENUES } from '../domain/index.ts';
import { Body, etagFor, objectWithArray, prependKeys, prettyAt } from './json-bytes.ts';
import { resolveMarketRef } from './market-ref.ts';
import { clampInt, clampMinMult, clampOffset, type Raw, str } from './params.ts';
import type { EventEntry, ReadModel } from './read-model.ts';

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
const MAX_Q_TOKENS = 6;

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
   * `GET /v1/events` (served-shapes §3): filters by index, pages by offset/limit. Unknown filter values still
   * run (an empty page) and add a notice naming the valid set; out-of-range limit/offset clamp with a notice.
   */
  listEvents(query: EventQuery, keyed: boolean): Body {
    const model = this.model();
    const category = str(query.category)?.toLowerCase();
    const platform = str(query.platform)?.toLowerCase();
    const grade = str(query.grade)?.toUpperCase();
    const q = str(query.q);
    const status = str(query.status)?.toLowerCase();
    const limit = clampInt('limit', query.limit, 50, 1, 100);
    const offset = clampOffset(query.offset);
    const key = `events|${category ?? ''}|${platform ?? ''}|${grade ?? ''}|${q ?? ''}|${status ?? ''}|${listText(query.limit)}|${listText(query.offset)}|${keyed}`;
    return cached(model, key, () => {
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
      if (status !== undefined && !(EVENT_STATUS_FILTERS as readonly string[]).includes(status)) {
        notices.status_notice = `"${str(query.status)}" is not a status; valid: ${EVENT_STATUS_FILTERS.join(', ')}.`;
        notices.valid_statuses = [...EVENT_STATUS_FILTERS];
      }
      if (limit.notice) notices.limit_notice = `${limit.notice} Page with offset.`;
      if (offset.notice) notices.offset_notice = offset.notice;

      const matches = this.filterEvents(model, { category, platform, grade, q, status });
      const page = matches.slice(offset.value, offset.value + limit.value);
      const head = {
        count: page.length,
        total: matches.length,
        limit: limit.value,
        offset: offset.value,
        keyed,
        ...notices,
        _notice: model.notice,
      };
      const text = objectWithArray(
        head,
        'events',
        page.map((e) => e.item),
      );
      return new Body(text, etagFor(model.generation, key));
    });
  }

  private filterEvents(
    model: ReadModel,
    f: { category?: string; platform?: string; grade?: string; q?: string | undefined; status?: string | undefined },
  ): EventEntry[] {
    let base: readonly EventEntry[] = model.events;
    const pick = (list: EventEntry[] | undefined): void => {
      const l = list ?? [];
      if (l.length < base.length) base = l;
    };
    if (f.category !== undefined) pick(model.byCategory.get(f.category));
    if (f.platform !== undefined) pick(model.byVenue.get(f.platform));
    if (f.grade !== undefined) pick(model.byGrade.get(f.grade));
    const tokens = f.q
      ? f.q
          .split(/\s+/)
          .filter((t) => t.length > 0)
          .slice(0, MAX_Q_TOKENS)
          .map((t) => t.toLowerCase())
      : [];
    const wantLive = f.status === 'active' ? true : f.status === 'resolved' ? false : undefined;
    return base.filter(
      (e) =>
        (f.category === undefined || e.event.category === f.category) &&
        (f.platform === undefined || e.event.venue === f.platform) &&
        (f.grade === undefined || e.grade === f.grade) &&
        (wantLive === undefined || e.live === wantLive) &&
        tokens.every((t) => e.searchText.includes(t)),
    );
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

  /** `GET /v1/markets/{id}`: service id, venue id or ticker, or venue market URL (parsed, never fetched). */
  getMarket(ref: string): Body | null {
    const model = this.model();
    return resolveMarketRef(ref, model.marketById, model.marketByNative)?.detail ?? null;
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
}
