/**
 * Examples for /openapi.json. Error examples are fixed (the shape is the contract); 200 examples come from the
 * live read model when there is data (see live-examples in the http layer) and fall back to these.
 */
export const errorExamples: Record<number, unknown> = {
  400: {
    error: 'A valid email is required, e.g. { "email": "you@example.com" }',
    code: 'invalid_email',
    request_id: '1a2b3c4d-1',
  },
  401: {
    error: 'Invalid API key',
    code: 'invalid_api_key',
    hint: 'Omit the key for anonymous access (1,000 requests/day per IP), or get one with POST /v1/keys {"email": …} for 10,000/day.',
    request_id: '1a2b3c4d-2',
  },
  404: {
    error: 'Event not found',
    code: 'event_not_found',
    hint: 'Pass an event slug or SVC-EVT- id; find one with /v1/events?q=…',
    request_id: '1a2b3c4d-3',
  },
  405: { error: 'Method not allowed', code: 'method_not_allowed', request_id: '1a2b3c4d-4' },
  409: {
    error: 'A key was already issued to this email address',
    code: 'key_already_issued',
    hint: 'Keys are stored only as hashes, so it cannot be shown again: keep using it (Authorization: Bearer <key>). Anonymous access needs no key (1,000 requests/day per IP).',
    request_id: '1a2b3c4d-9',
  },
  413: { error: 'Request body is over 4096 bytes', code: 'payload_too_large', request_id: '1a2b3c4d-5' },
  415: {
    error: 'Send the body as application/json',
    code: 'unsupported_media_type',
    hint: 'Content-Type: application/json',
    request_id: '1a2b3c4d-6',
  },
  429: {
    error: 'Daily rate limit exceeded: anonymous access allows 1000 requests/day per IP',
    code: 'rate_limited',
    hint: 'Get a free key for 10,000/day: POST /v1/keys {"email": …}. The count resets at 00:00 UTC.',
    request_id: '1a2b3c4d-7',
  },
  500: {
    error: 'Internal error',
    code: 'internal',
    hint: 'Retry; if it persists, contact the operator quoting request_id 1a2b3c4d-8.',
    request_id: '1a2b3c4d-8',
  },
};

/** The `_notice` of a live answer to an anonymous client, as the examples show it. */
const exampleNotice = {
  type: 'free_key_offer',
  message:
    'Free anonymous access stays. A free key (POST /v1/keys with {"email": …}) raises the daily limit to 10,000 requests and adds advance notice of schema changes and deprecations. Problems: open an issue on the repository.',
  docs: 'https://pmref.example/docs',
  policy: 'This _notice field is additive; its shape will not change.',
  data_source: 'live',
};

const exampleRun = {
  run_id: 57,
  source: 'live',
  status: 'partial',
  started_at: '2026-11-22T09:00:00.000Z',
  finished_at: '2026-11-22T09:00:58.000Z',
  generation: 42,
};

export const responseExamples: Record<string, unknown> = {
  createKey: {
    key: 'pmref_0123456789abcdef0123456789abcdef',
    email: 'dev@example.com',
    daily_limit: 10000,
    usage: 'Optional: anonymous access works too. Send Authorization: Bearer <key> or ?key=<key> for the higher limit.',
  },
  listChanges: {
    as_of: '2026-11-22T09:20:00.000Z',
    schema_version: 'v0.2.0',
    after: 40,
    count: 2,
    next_after: 42,
    latest_seq: 42,
    docs: 'Changes after a seq, oldest first; pass next_after as after until it equals latest_seq, then poll or stream (https://pmref.example/v1/changes/stream). https://pmref.example/docs',
    _notice: exampleNotice,
    changes: [
      {
        seq: 41,
        kind: 'grade_changed',
        market_id: 'SVC-MKT-0A1B2C3D4E',
        event_id: 'SVC-EVT-0A1B2C3D4E',
        signal_slug: null,
        generation: 7,
        published_at: '2026-11-22T09:00:58.000Z',
        detail: { from: { grade: 'B', score: 74 }, to: { grade: 'A', score: 86 } },
      },
      {
        seq: 42,
        kind: 'lifecycle',
        market_id: 'SVC-MKT-0A1B2C3D4E',
        event_id: 'SVC-EVT-0A1B2C3D4E',
        signal_slug: null,
        generation: 7,
        published_at: '2026-11-22T09:00:58.000Z',
        detail: {
          event_type: 'status_change',
          log_id: 311,
          occurred_at: '2026-11-22T09:00:00.000Z',
          from: 'open',
          to: 'closed',
        },
      },
    ],
  },
  listMarks: {
    as_of: '2026-11-22T09:20:00.000Z',
    schema_version: 'v0.2.0',
    since: '2026-11-22T08:00:00.000Z',
    count: 1,
    next_cursor: 'MjAyNi0xMS0yMnxTVkMtTUtULTBBMUIyQzNENEU',
    docs: 'Marks written or updated at or after since, oldest snapshot date first; follow next_cursor until it is null. https://pmref.example/docs',
    _notice: exampleNotice,
    marks: [
      {
        mark_id: 98121,
        market_id: 'SVC-MKT-0A1B2C3D4E',
        snapshot_date: '2026-11-22',
        snapshot_at: '2026-11-22T09:00:00.000Z',
        source_updated_at: '2026-11-22T08:59:41.000Z',
        yes_bid: 0.41,
        yes_ask: 0.43,
        no_bid: 0.57,
        no_ask: 0.59,
        yes_bid_size_usd: 1200,
        yes_ask_size_usd: 950,
        no_bid_size_usd: 950,
        no_ask_size_usd: 1200,
        yes_last_price: 0.42,
        implied_probability: 0.42,
        volume_24h_usd: 18250,
        volume_total_usd: 512000,
        open_interest_usd: 88000,
        mark_method: 'venue_snapshot',
        stale_flag: false,
        source_count: 1,
        spread: 0.02,
        mid: 0.42,
        divergence_from_primary: null,
        hours_since_source_update: 0,
        field_provenance: {},
      },
    ],
  },
  getStatus: {
    service: 'pmref',
    as_of: '2026-11-22T09:20:00.000Z',
    schema_version: 'v0.2.0',
    state: 'degraded',
    checks: [
      { name: 'store', ok: true, detail: 'readable; newest published generation 42' },
      { name: 'read_model', ok: true, detail: 'serving generation 42, built 2026-11-22T09:01:12.000Z' },
      { name: 'pipeline', ok: false, detail: 'run 57 (live) finished at 2026-11-22T09:00:58.000Z without every venue' },
      { name: 'venue_a', ok: true, detail: 'run 57: 1812 pulled, 1650 stored' },
      { name: 'venue_b', ok: false, detail: 'not reached in run 57: HTTP 503 after 4 attempts' },
      {
        name: 'freshness',
        ok: true,
        detail: 'newest data published 19 min ago (refresh every 60 min; stale after 120)',
      },
    ],
    dataset: {
      data_source: 'live',
      generation: 42,
      store_generation: 42,
      built_at: '2026-11-22T09:01:12.000Z',
      events: 1204,
      markets: 3380,
      marks: 98120,
      log: 5210,
      signals: 88,
    },
    runs: { last: exampleRun, last_published: exampleRun },
    non_core: {
      signals: { count: 88, newest_published_at: '2026-11-22T09:01:00.000Z' },
      spot: { coins: 6, newest_as_of: '2026-11-22T09:00:00.000Z' },
    },
    docs: 'What each check means: https://pmref.example/openapi.json (getStatus). Docs: https://pmref.example/docs',
  },
  getSpot: {
    source: 'coingecko',
    vs_currency: 'usd',
    spot: [{ coin: 'bitcoin', price_usd: 97000, as_of: '2026-11-21T23:00:00.000Z' }],
  },
};
