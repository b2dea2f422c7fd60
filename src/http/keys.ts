/**
 * API keys (spec §5, served-shapes §10–11): `pmref_` + 32 lowercase hex, shown once, stored only as a SHA-256
 * hash. Lookups are cached briefly (misses for a few seconds, so a key made on another replica works soon).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord, Store } from '../store/index.ts';

export const KEY_PATTERN = /^pmref_[0-9a-f]{32}$/;
/** served-shapes §10: the x@y.z pattern, whitespace excluded. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function newApiKey(): string {
  return `pmref_${randomBytes(16).toString('hex')}`;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const HIT_TTL_MS = 5 * 60_000;
const MISS_TTL_MS = 5_000;

export class KeyRegistry {
  private readonly cache = new Map<string, { record: ApiKeyRecord | null; until: number }>();

  constructor(
    private readonly store: Store,
    private readonly clock: () => Date,
  ) {}

  /** The record of a presented key, or null when the key is unknown or malformed. */
  async find(key: string): Promise<ApiKeyRecord | null> {
    if (!KEY_PATTERN.test(key)) return null;
    const hash = hashKey(key);
    const now = this.clock().getTime();
    const hit = this.cache.get(hash);
    if (hit && hit.until > now) return hit.record;
    const record = await this.store.findApiKey(hash);
    if (this.cache.size > 50_000) this.cache.clear();
    this.cache.set(hash, { record, until: now + (record ? HIT_TTL_MS : MISS_TTL_MS) });
    return record;
  }

  /** Issues a key for `email`; returns the plain key (the only time it exists outside the client). */
  async create(email: string, dailyLimit: number): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = newApiKey();
    const record: ApiKeyRecord = {
      key_hash: hashKey(key),
      email,
      daily_limit: dailyLimit,
      created_at: this.clock().toISOString(),
    };
    await this.store.insertApiKey(record);
    this.cache.set(record.key_hash, { record, until: this.clock().getTime() + HIT_TTL_MS });
    return { key, record };
  }
}
