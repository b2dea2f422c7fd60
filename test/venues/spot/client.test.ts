// The spot client reads the CoinGecko simple-price shape into sorted SpotRows, retries once on 5xx, timeouts and bad bodies, and reports a failure as `error` without throwing.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SpotRowSchema } from '../../../src/domain/index.ts';
import { pullSpot } from '../../../src/venues/spot/index.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void;

let server: Server | undefined;
const seen: IncomingMessage[] = [];

async function serve(handler: Handler): Promise<string> {
  let n = 0;
  server = createServer((req, res) => {
    seen.push(req);
    n += 1;
    handler(req, res, n);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/spot`;
}

afterEach(async () => {
  seen.length = 0;
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const BODY = {
  ethereum: { usd: 2443.5, usd_24h_change: -2.67, last_updated_at: 1787968840 },
  bitcoin: { usd: 77790, usd_24h_change: -3.28, last_updated_at: 1787968850 },
  'pax-gold': { usd: 4462.5, last_updated_at: 1787968840 },
};
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

describe('pullSpot', () => {
  it('reads the simple-price shape, sorted by coin, with as-of times', async () => {
    const baseUrl = await serve((_req, res) => json(res, 200, BODY));
    const out = await pullSpot({
      baseUrl,
      coins: ['ethereum', 'bitcoin', 'solana', 'bitcoin'],
      timeoutMs: 2000,
      userAgent: 'pmref-test',
      retryDelayMs: 0,
    });
    expect(out).toEqual({
      rows: [
        { coin: 'bitcoin', price_usd: 77790, as_of: new Date(1787968850 * 1000).toISOString() },
        { coin: 'ethereum', price_usd: 2443.5, as_of: new Date(1787968840 * 1000).toISOString() },
      ],
      error: null,
      missing: ['solana'],
    });
    for (const r of out.rows) SpotRowSchema.parse(r);
    const url = new URL(seen[0]?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/spot/simple/price');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      ids: 'bitcoin,ethereum,solana',
      vs_currencies: 'usd',
      include_last_updated_at: 'true',
    });
    expect(seen[0]?.headers['user-agent']).toBe('pmref-test');
  });

  it('uses the fetch time when a coin has no last_updated_at', async () => {
    const baseUrl = await serve((_req, res) => json(res, 200, { bitcoin: { usd: 1 } }));
    const out = await pullSpot({
      baseUrl,
      coins: ['bitcoin'],
      retryDelayMs: 0,
      now: () => new Date('2026-06-10T12:00:00Z'),
    });
    expect(out.rows).toEqual([{ coin: 'bitcoin', price_usd: 1, as_of: '2026-06-10T12:00:00.000Z' }]);
  });

  it('retries once after a 5xx', async () => {
    const baseUrl = await serve((_req, res, n) => (n === 1 ? json(res, 503, { error: 'busy' }) : json(res, 200, BODY)));
    const out = await pullSpot({ baseUrl, coins: ['bitcoin'], retryDelayMs: 0 });
    expect(out.error).toBeNull();
    expect(out.rows).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it('sets error, without throwing, when both attempts fail', async () => {
    const baseUrl = await serve((_req, res) => json(res, 500, { error: 'down' }));
    const out = await pullSpot({ baseUrl, coins: ['bitcoin'], retryDelayMs: 0 });
    expect(out.rows).toEqual([]);
    expect(out.error).toMatch(/HTTP 500/);
    expect(seen).toHaveLength(2);
  });

  it('does not retry a 4xx', async () => {
    const baseUrl = await serve((_req, res) => json(res, 404, { error: 'nope' }));
    const out = await pullSpot({ baseUrl, coins: ['bitcoin'], retryDelayMs: 0 });
    expect(out.error).toMatch(/HTTP 404/);
    expect(seen).toHaveLength(1);
  });

  it('times out, retries, and reports the timeout', async () => {
    const baseUrl = await serve(() => {
      /* never answers */
    });
    const out = await pullSpot({ baseUrl, coins: ['bitcoin'], timeoutMs: 50, retryDelayMs: 0 });
    expect(out.error).toMatch(/timeout after 50 ms/);
    expect(seen).toHaveLength(2);
  });

  it('reports malformed bodies and unreachable hosts', async () => {
    const baseUrl = await serve((_req, res) => json(res, 200, '{"bitcoin": {"usd": 1'));
    expect((await pullSpot({ baseUrl, coins: ['bitcoin'], retryDelayMs: 0 })).error).toMatch(/malformed JSON/);
    const wrong = await serve((_req, res) => json(res, 200, { bitcoin: { usd: 'a lot' } }));
    expect((await pullSpot({ baseUrl: wrong, coins: ['bitcoin'], retryDelayMs: 0 })).error).toMatch(
      /no requested coin priced/,
    );
    const closed = await pullSpot({ baseUrl: 'http://127.0.0.1:1/spot', coins: ['bitcoin'], retryDelayMs: 0 });
    expect(closed.error).toMatch(/network error/);
  });

  it('makes no request for no coins', async () => {
    const baseUrl = await serve((_req, res) => json(res, 200, BODY));
    expect(await pullSpot({ baseUrl, coins: [] })).toEqual({ rows: [], error: null, missing: [] });
    expect(seen).toHaveLength(0);
  });
});
