/**
 * `GET /v1/marks?since=<ISO>` (served-shapes §17): the daily marks (spec §2.3) written or updated since a
 * moment, for clients that keep their own copy in sync. Each market has one mark per UTC date, updated at
 * every refresh that day, so a mark is "since" when its `snapshot_at` is at or after `since`; the feed scans
 * snapshot dates from since's UTC date on, in (snapshot_date, market_id) order, and pages with an opaque
 * cursor. Only marks of published markets are served (spec §2.1), without `raw_payload` (the venue's own
 * record, kept for audit in the store).
 *
 * Unlike the catalog reads this is a live, paged store query (a sync feed over every stored day is no
 * candidate for precomputed bytes); `limit` bounds the work of one request: on the full simulated universe
 * (2–3 KB per mark) a page of 1,000 takes about 50 ms and 2 MB (56 KB gzipped), so pages stop at 2,000.
 */
import type { Mark, MarksPage } from '../domain/index.ts';
import type { Store } from '../store/index.ts';
import { clampInt, type Raw } from './params.ts';
import type { ReadModelSource } from './query-service.ts';

export const MARKS_DEFAULT_LIMIT = 1000;
export const MARKS_MAX_LIMIT = 2000;
/** Store pages one request may read while skipping marks that are not served. */
const MAX_SCANS = 5;

/** A request the feed cannot answer: the route turns it into a 400 with this message and hint. */
export class MarksQueryError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

export type ServedMark = Omit<Mark, 'raw_payload'>;

interface Key {
  snapshot_date: string;
  market_id: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function parseSince(raw: Raw): Date {
  const hint = 'Pass since as an ISO date or date-time, e.g. since=2026-11-20 or since=2026-11-20T12:00:00Z.';
  if (raw === undefined || raw === null || raw === '') throw new MarksQueryError('since is required', hint);
  const text = String(raw);
  const t = ISO_DATE.test(text) ? Date.parse(`${text}T00:00:00Z`) : ISO_DATETIME.test(text) ? Date.parse(text) : NaN;
  // The value is not quoted back: an error body never echoes request input (XSS and log injection).
  if (Number.isNaN(t)) throw new MarksQueryError('since is not an ISO date or date-time', hint);
  return new Date(t);
}

/** The cursor is the last scanned (date, market) key, base64url-encoded; opaque to clients. */
export function encodeCursor(key: Key): string {
  return Buffer.from(`${key.snapshot_date}|${key.market_id}`).toString('base64url');
}

function decodeCursor(raw: Raw): Key | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const [date, market, extra] = Buffer.from(String(raw), 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !date || !ISO_DATE.test(date) || !market) {
    throw new MarksQueryError(
      'cursor is not one this feed issued',
      'Pass next_cursor from the previous page unchanged, or drop it to start from since.',
    );
  }
  return { snapshot_date: date, market_id: market };
}

export class MarksFeed {
  constructor(
    private readonly store: Store,
    private readonly source: ReadModelSource,
    private readonly opts: { clock: () => Date; origin: string },
  ) {}

  /** One page of the feed. Throws MarksQueryError for a missing or malformed `since` or `cursor`. */
  async page(query: { since?: Raw; cursor?: Raw; limit?: Raw }): Promise<MarksPage> {
    const since = parseSince(query.since);
    let after = decodeCursor(query.cursor);
    const limit = clampInt('limit', query.limit, MARKS_DEFAULT_LIMIT, 1, MARKS_MAX_LIMIT);
    const model = this.source.current();
    const sinceIso = since.toISOString();
    const marks: ServedMark[] = [];
    let exhausted = false;
    for (let scan = 0; scan < MAX_SCANS && marks.length < limit.value && !exhausted; scan++) {
      const want = limit.value - marks.length;
      const rows = await this.store.listMarks({
        since: sinceIso.slice(0, 10),
        limit: want,
        ...(after ? { after } : {}),
        withoutRaw: true,
      });
      exhausted = rows.length < want;
      for (const m of rows) {
        if (model.marketById.has(m.market_id) && Date.parse(m.snapshot_at) >= since.getTime()) marks.push(m);
      }
      const last = rows[rows.length - 1];
      if (last) after = { snapshot_date: last.snapshot_date, market_id: last.market_id };
    }
    return {
      as_of: this.opts.clock().toISOString(),
      schema_version: 'v0.2.0',
      since: sinceIso,
      count: marks.length,
      next_cursor: exhausted || !after ? null : encodeCursor(after),
      docs: `Marks written or updated at or after since, oldest snapshot date first; follow next_cursor until it is null. ${this.opts.origin}/docs`,
      ...(limit.notice ? { limit_notice: limit.notice } : {}),
      _notice: model.notice,
      marks,
    };
  }
}
