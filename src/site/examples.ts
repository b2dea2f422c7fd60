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
    hint: 'Omit the key for anonymous access (1,000 requests/day), or get one with POST /v1/keys {"email": …}.',
    request_id: '1a2b3c4d-2',
  },
  404: {
    error: 'Event not found',
    code: 'event_not_found',
    hint: 'Pass an event slug or SVC-EVT- id; find one with /v1/events?q=…',
    request_id: '1a2b3c4d-3',
  },
  405: { error: 'Method not allowed', code: 'method_not_allowed', request_id: '1a2b3c4d-4' },
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

export const responseExamples: Record<string, unknown> = {
  createKey: {
    key: 'pmref_0123456789abcdef0123456789abcdef',
    email: 'dev@example.com',
    daily_limit: 10000,
    usage: 'Optional: anonymous access works too. Send Authorization: Bearer <key> or ?key=<key> for the higher limit.',
  },
  getSpot: {
    source: 'coingecko',
    vs_currency: 'usd',
    spot: [{ coin: 'bitcoin', price_usd: 97000, as_of: '2026-11-21T23:00:00.000Z' }],
  },
};
