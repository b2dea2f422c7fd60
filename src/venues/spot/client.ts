/**
 * Spot client for the CoinGecko simple-price shape (`GET {base}/simple/price?ids=…&vs_currencies=usd
 * &include_last_updated_at=true`). The live API, the replay server (`{replay}/spot`) and the simulated
 * universe all answer in this shape. A failure is data (`error` set, no throw): spot feeds only the
 * benchmark-drift signal and must never fail a pipeline run.
 */
import { z } from 'zod';
import type { SpotRow } from '../../domain/index.ts';
import { PMREF_USER_AGENT } from '../http.ts';

/** One coin in the simple-price body; unknown extra keys (usd_24h_change, other currencies) are ignored. */
const SimplePriceCoinSchema = z.looseObject({
  usd: z.number().positive(),
  last_updated_at: z.number().int().positive().optional(),
});
const SimplePriceBodySchema = z.record(z.string(), z.unknown());

export interface PullSpotOptions {
  /** Root of the API: `https://api.coingecko.com/api/v3`, or the replay server's `…/spot`. */
  baseUrl: string;
  /** Simple-price coin ids (see coinsReferenced in src/signals). */
  coins: readonly string[];
  timeoutMs?: number;
  userAgent?: string;
  /** Wait before the one retry (tests pass 0). */
  retryDelayMs?: number;
  /** The as-of time for coins the body gives no `last_updated_at` for. Defaults to the fetch time. */
  now?: () => Date;
  /** Test seam. */
  fetchImpl?: typeof fetch;
}

export interface SpotPull {
  /** Sorted by coin. */
  rows: SpotRow[];
  /** Null on success; otherwise why no rows could be read. */
  error: string | null;
  /** Requested coins the body did not price (or priced unreadably). */
  missing: string[];
}

class RetryableError extends Error {}

async function fetchOnce(
  url: string,
  o: Required<Pick<PullSpotOptions, 'timeoutMs' | 'userAgent'>> & { fetchImpl: typeof fetch },
): Promise<unknown> {
  let res: Response;
  try {
    res = await o.fetchImpl(url, {
      headers: { accept: 'application/json', 'user-agent': o.userAgent },
      signal: AbortSignal.timeout(o.timeoutMs),
    });
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    throw new RetryableError(
      name === 'TimeoutError' || name === 'AbortError'
        ? `timeout after ${o.timeoutMs} ms`
        : `network error: ${String(err)}`,
    );
  }
  if (res.status === 429 || res.status >= 500) {
    await res.body?.cancel();
    throw new RetryableError(`HTTP ${res.status}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`HTTP ${res.status}`);
  }
  try {
    return await res.json();
  } catch {
    throw new RetryableError('malformed JSON body');
  }
}

/**
 * Pulls USD spot prices for `coins`, retrying once on a timeout, network error, 429, 5xx or
 * malformed body. Never throws.
 * @example await pullSpot({ baseUrl: 'http://127.0.0.1:9000/spot', coins: ['bitcoin'] })
 */
export async function pullSpot(options: PullSpotOptions): Promise<SpotPull> {
  const coins = [...new Set(options.coins)].sort();
  if (coins.length === 0) return { rows: [], error: null, missing: [] };
  const base = options.baseUrl.replace(/\/+$/, '');
  const url = `${base}/simple/price?ids=${coins.map(encodeURIComponent).join(',')}&vs_currencies=usd&include_last_updated_at=true`;
  const call = {
    timeoutMs: options.timeoutMs ?? 10_000,
    userAgent: options.userAgent ?? PMREF_USER_AGENT,
    fetchImpl: options.fetchImpl ?? fetch,
  };
  let body: unknown;
  try {
    try {
      body = await fetchOnce(url, call);
    } catch (err) {
      if (!(err instanceof RetryableError)) throw err;
      const delay = options.retryDelayMs ?? 500;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      body = await fetchOnce(url, call);
    }
  } catch (err) {
    return { rows: [], error: `spot ${url}: ${err instanceof Error ? err.message : String(err)}`, missing: coins };
  }
  const parsed = SimplePriceBodySchema.safeParse(body);
  if (!parsed.success) return { rows: [], error: `spot ${url}: body is not an object of coins`, missing: coins };
  const fetchedAt = (options.now ?? (() => new Date()))().toISOString();
  const rows: SpotRow[] = [];
  const missing: string[] = [];
  for (const coin of coins) {
    const entry = SimplePriceCoinSchema.safeParse(parsed.data[coin]);
    if (!entry.success) {
      missing.push(coin);
      continue;
    }
    const asOf = entry.data.last_updated_at ? new Date(entry.data.last_updated_at * 1000).toISOString() : fetchedAt;
    rows.push({ coin, price_usd: entry.data.usd, as_of: asOf });
  }
  const error = rows.length === 0 ? `spot ${url}: no requested coin priced (${missing.join(', ')})` : null;
  return { rows, error, missing };
}
