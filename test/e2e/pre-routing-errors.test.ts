// Every error, including those raised before a request reaches a route (node's HTTP parser, the router, CONNECT), is answered in the one error shape with a request id and the right status, never quotes the request back, and a client that shuts its write side after its request still gets the answer.
import { createServer } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawResponse, rawRequest } from './raw-http.ts';
import { type Started, startServer } from './rest-helpers.ts';

/** Read responses until the server closes the connection. */
const UNTIL_CLOSE = Number.POSITIVE_INFINITY;

let s: Started;
let port: number;
beforeAll(async () => {
  s = await startServer();
  port = Number(new URL(s.base).port);
});
afterAll(async () => {
  await s.close();
});

/** One request on a fresh connection; fails (with what was read) unless exactly one response came back. */
async function one(request: string, opts: { halfClose?: boolean; head?: boolean } = {}): Promise<RawResponse> {
  const got = await rawRequest(port, request, {
    ...(opts.halfClose ? { halfClose: true } : {}),
    ...(opts.head ? { bodiless: [true] } : {}),
  });
  expect(got.timedOut, 'the server answered in time').toBe(false);
  expect(got.responses).toHaveLength(1);
  return got.responses[0] as RawResponse;
}

/** Asserts the one error shape, with the response's own request id, and returns the body. */
function errorOf(res: RawResponse, status: number, code: string): Record<string, unknown> {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['access-control-allow-origin']).toBe('*');
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(
    Object.keys(body).every((k) => ['error', 'code', 'hint', 'request_id'].includes(k)),
    res.body,
  ).toBe(true);
  expect(body).toMatchObject({ error: expect.any(String), code, request_id: res.headers['x-request-id'] });
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
  return body;
}

const req = (line: string, headers: string[] = [], body = ''): string =>
  `${line}\r\nHost: pmref.test\r\n${headers.map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n${body}`;

describe("node's parser errors", () => {
  it('answers a malformed request line with 400 and closes', async () => {
    const got = await rawRequest(port, 'GARBAGE<script>alert(1)</script>\r\n\r\n', { responses: UNTIL_CLOSE });
    expect(got.closed).toBe(true);
    const res = got.responses[0] as RawResponse;
    expect(errorOf(res, 400, 'invalid_request')).toEqual({
      error: 'Malformed HTTP request',
      code: 'invalid_request',
      hint: 'Send an HTTP/1.1 request with a method among GET, HEAD, POST, OPTIONS and a percent-encoded path.',
      request_id: res.headers['x-request-id'],
    });
    expect(res.headers.connection).toBe('close');
    expect(res.body).not.toContain('script');
  });

  it('answers a malformed header and a malformed Content-Length with 400', async () => {
    for (const bad of [
      req('GET /v1/events HTTP/1.1', ['Bad Header<x>: y']),
      req('POST /v1/keys HTTP/1.1', ['Content-Length: 1x']),
    ]) {
      const res = await one(bad);
      errorOf(res, 400, 'invalid_request');
      expect(res.body).not.toContain('<x>');
    }
  });

  it('answers headers over 16 KB with 431', async () => {
    const res = await one(req('GET /v1/events HTTP/1.1', [`X-Big: ${'b'.repeat(20_000)}`]));
    expect(errorOf(res, 431, 'header_too_large').hint).toBe(
      'Keep the request line and headers under 16 KB in all, and the URL under 8192 characters.',
    );
    expect(res.body).not.toContain('bbbb');
  });

  it('answers a bad request on a kept-alive connection after the good response it already sent', async () => {
    const got = await rawRequest(
      port,
      'GET /v1/spot HTTP/1.1\r\nHost: pmref.test\r\n\r\nGET /v1/spot HTTP/1.1\r\nBroken\r\n\r\n',
      { responses: 2 },
    );
    expect(got.responses.map((r) => r.status)).toEqual([200, 400]);
    errorOf(got.responses[1] as RawResponse, 400, 'invalid_request');
  });
});

describe('before routing', () => {
  it('answers a path that is not valid percent-encoding with 400, without quoting it', async () => {
    for (const path of ['/v1/events/%ZZ<script>alert(1)</script>', '/%E0%A4%A', '/v1/markets/%C0%AFpmref-canary']) {
      const res = await one(req(`GET ${path} HTTP/1.1`));
      expect(errorOf(res, 400, 'invalid_request')).toEqual({
        error: 'Malformed URL: the path is not valid percent-encoded UTF-8',
        code: 'invalid_request',
        hint: 'Percent-encode the path (RFC 3986), e.g. a space as %20 and a slash inside an id as %2F.',
        request_id: res.headers['x-request-id'],
      });
      expect(res.body).not.toMatch(/script|%ZZ|%E0|canary/);
    }
  });

  it('answers a URL over 8192 characters with 414, on the hot path and off it', async () => {
    for (const target of [`/v1/events?q=${'q'.repeat(9000)}`, `/v1/markets/${'m'.repeat(9000)}`]) {
      const res = await one(req(`GET ${target} HTTP/1.1`));
      expect(errorOf(res, 414, 'uri_too_long')).toEqual({
        error: 'Request URL is too long',
        code: 'uri_too_long',
        hint: 'Keep the path and query under 8192 characters; page through lists with limit and offset.',
        request_id: res.headers['x-request-id'],
      });
      expect(res.body).not.toContain('qqqq');
      expect(res.body).not.toContain('mmmm');
    }
  });

  it('looks up a long id (a venue URL) instead of refusing it as a long parameter', async () => {
    const id = encodeURIComponent(`https://kalshi.com/markets/kxfed/fed-funds-rate/${'x'.repeat(200)}`);
    const res = await one(req(`GET /v1/markets/${id} HTTP/1.1`));
    errorOf(res, 404, 'market_not_found');
    expect(res.body).not.toContain('xxxx');
  });
});

describe('methods', () => {
  it('refuses CONNECT with 405 and closes, without quoting the target', async () => {
    const got = await rawRequest(
      port,
      'CONNECT pmref-canary.example:443 HTTP/1.1\r\nHost: pmref-canary.example:443\r\n\r\n',
      { responses: UNTIL_CLOSE },
    );
    expect(got.timedOut).toBe(false);
    expect(got.closed).toBe(true);
    const res = got.responses[0] as RawResponse;
    expect(errorOf(res, 405, 'method_not_allowed').hint).toBe(
      'This service is not a proxy; it answers GET, HEAD, POST and OPTIONS.',
    );
    expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.body).not.toContain('canary');
  });

  it('answers a known path with a wrong method 405 and Allow, whatever body comes with it', async () => {
    const cases: [string, string[], string, string][] = [
      ['TRACE /v1/events HTTP/1.1', [], '', 'GET, HEAD, OPTIONS'],
      ['PROPFIND /v1/events/some-slug HTTP/1.1', [], '', 'GET, HEAD, OPTIONS'],
      ['DELETE /v1/events HTTP/1.1', ['Content-Type: application/json', 'Content-Length: 0'], '', 'GET, HEAD, OPTIONS'],
      ['PUT /v1/keys HTTP/1.1', ['Content-Type: application/json', 'Content-Length: 5'], '{bad ', 'POST, OPTIONS'],
      ['GET /v1/keys HTTP/1.1', [], '', 'POST, OPTIONS'],
      [
        'PATCH /mcp HTTP/1.1',
        ['Content-Type: application/json', 'Content-Length: 0'],
        '',
        'GET, HEAD, POST, DELETE, OPTIONS',
      ],
    ];
    for (const [line, headers, body, allow] of cases) {
      const res = await one(req(line, headers, body));
      expect(errorOf(res, 405, 'method_not_allowed'), line).toEqual({
        error: 'Method not allowed',
        code: 'method_not_allowed',
        hint: `This path answers ${allow}.`,
        request_id: res.headers['x-request-id'],
      });
      expect(res.headers.allow, line).toBe(allow);
    }
  });

  it('answers an unknown path 404 whatever the method and body', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'TRACE']) {
      const res = await one(
        req(`${method} /v2/pmref-canary HTTP/1.1`, ['Content-Type: application/json', 'Content-Length: 2'], '{x'),
      );
      errorOf(res, 404, 'not_found');
      expect(res.body).not.toContain('canary');
    }
    const head = await one(req('HEAD /v2/pmref-canary HTTP/1.1'), { head: true });
    expect(head.status).toBe(404);
  });

  it('answers a request with an Expect it does not know as usual', async () => {
    const res = await one(req('GET /v1/spot HTTP/1.1', ['Expect: pmref-canary']));
    expect(res.status).toBe(200);
  });
});

describe('requests that are not HTTP/1.x', () => {
  // node's parser takes a line without a version as HTTP/0.9 and an RTSP line as HTTP/1.0, with methods no
  // route table has (PRI, RTSP's); Fastify answered those from a fallback that ran no hook, so the error had
  // no common headers and no X-Request-Id (fuzz seed 684935648).
  it('answers the fuzz wire PRI without a version, with a chunked body and a stray chunk behind it, once', async () => {
    const wire =
      'PRI /schemas/market.json\r\nHost: pmref.test\r\nConnection: close\r\naccept-encoding: identity\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n0\r\n\r\n';
    const got = await rawRequest(port, wire, { responses: UNTIL_CLOSE });
    expect(got.timedOut).toBe(false);
    expect(got.closed).toBe(true);
    // The bytes behind a request that asked Connection: close are no request: no second answer (RFC 9112 §9.6).
    expect(got.responses).toHaveLength(1);
    const res = got.responses[0] as RawResponse;
    expect(errorOf(res, 400, 'invalid_request')).toEqual({
      error: 'Malformed HTTP request',
      code: 'invalid_request',
      hint: 'Send an HTTP/1.1 request with a method among GET, HEAD, POST, OPTIONS and a percent-encoded path.',
      request_id: res.headers['x-request-id'],
    });
    expect(res.headers['x-schema-version']).toBe('v0.2.0');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.connection).toBe('close');
  });

  it.each([
    'PRI /schemas/market.json',
    'DESCRIBE /v1/events RTSP/1.0',
    'PLAY /v1/events/pmref-canary',
    'GET /v1/spot',
    'GET /v1/markets/pmref-canary',
    'GET /v1/spot HTTP/2.0',
  ])('refuses %s with 400 like the parser refuses it, and closes', async (line) => {
    const got = await rawRequest(port, req(line), { responses: UNTIL_CLOSE });
    expect(got.closed).toBe(true);
    expect(got.responses).toHaveLength(1);
    const res = got.responses[0] as RawResponse;
    expect(errorOf(res, 400, 'invalid_request').error).toBe('Malformed HTTP request');
    expect(res.headers['x-schema-version']).toBe('v0.2.0');
    expect(res.body).not.toContain('canary');
  });

  it('answers a request that is not HTTP/1.x behind a kept-alive one after that one', async () => {
    // Not PRI: node destroys the connection after parsing a PRI request (its HTTP/2 preface guard), answers
    // queued behind it included.
    for (const second of ['GET /v1/spot', 'DESCRIBE /v1/spot RTSP/1.0']) {
      const got = await rawRequest(
        port,
        `GET /v1/spot HTTP/1.1\r\nHost: pmref.test\r\n\r\n${second}\r\nHost: pmref.test\r\n\r\n`,
        { responses: UNTIL_CLOSE },
      );
      expect(got.closed).toBe(true);
      expect(got.responses.map((r) => r.status)).toEqual([200, 400]);
      errorOf(got.responses[1] as RawResponse, 400, 'invalid_request');
    }
  });

  it("answers in the one shape when such a method reaches Fastify's router anyway (its last-resort fallback)", async () => {
    // The app's server refuses these methods before routing; a server that hands every request to the router,
    // as Fastify's own would, shows what the error handler and sendError make of its fallback's 404.
    const bare = createServer((request, response) => s.app.routing(request, response));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    try {
      const address = bare.address();
      const barePort = typeof address === 'object' && address ? address.port : 0;
      const cases: [string, number, string][] = [
        ['DESCRIBE /schemas/market.json RTSP/1.0', 405, 'method_not_allowed'],
        ['SETUP /v2/pmref-canary RTSP/1.0', 404, 'not_found'],
      ];
      for (const [line, status, code] of cases) {
        const got = await rawRequest(barePort, req(line), { responses: UNTIL_CLOSE });
        expect(got.responses).toHaveLength(1);
        const res = got.responses[0] as RawResponse;
        errorOf(res, status, code);
        expect(res.headers['x-schema-version']).toBe('v0.2.0');
        if (status === 405) expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
        expect(res.body).not.toContain('canary');
      }
    } finally {
      await new Promise<void>((resolve, reject) => bare.close((err) => (err ? reject(err) : resolve())));
    }
  });
});

describe('413 names the limit of the route', () => {
  it.each([
    ['/v1/keys', 4096],
    ['/mcp', 65536],
    ['/a2a', 65536],
  ])('%s refuses a body over %i bytes', async (path, limit) => {
    const body = JSON.stringify({ pad: 'p'.repeat(limit) });
    const res = await one(
      req(`POST ${path} HTTP/1.1`, ['Content-Type: application/json', `Content-Length: ${body.length}`], body),
    );
    expect(errorOf(res, 413, 'payload_too_large')).toEqual({
      error: `Request body is over ${limit} bytes`,
      code: 'payload_too_large',
      request_id: res.headers['x-request-id'],
    });
  });
});

describe('half-closed connections', () => {
  it.each([
    ['/v1/status', 'gzip'],
    ['/v1/status', 'br'],
    ['/v1/marks?since=2020-01-01', 'gzip'],
    ['/v1/marks?since=2020-01-01', 'br'],
  ])('get their compressed %s (%s) after shutting their write side', async (path, encoding) => {
    // The client writes its request and shuts its side at once, as `nc -N` and some proxies do.
    const res = await one(`GET ${path} HTTP/1.1\r\nHost: pmref.test\r\nAccept-Encoding: ${encoding}\r\n\r\n`, {
      halfClose: true,
    });
    expect(res.status, res.body).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    const text = (encoding === 'gzip' ? gunzipSync(res.bytes) : brotliDecompressSync(res.bytes)).toString();
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(json)).toContain(path === '/v1/status' ? 'state' : 'marks');
  });
});
