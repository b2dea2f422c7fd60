/**
 * API keys (spec §5, served-shapes §10–11): `pmref_` + 32 lowercase hex, shown once, stored only as a SHA-256
 * hash. Lookups are cached briefly (misses for a few seconds, so a key made on another replica works soon).
 *
 * One key per email address (issue 15): the address is validated (`isValidEmail`) and normalized
 * (`normalizeEmail`: trimmed, lower case) before the store claims it; asking again for the same address is
 * refused (409 `key_already_issued`), because the key itself exists only as a hash and cannot be shown again.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord, Store } from '../store/index.ts';

export const KEY_PATTERN = /^pmref_[0-9a-f]{32}$/;

/**
 * The local part: RFC 5321 dot-atom (the atext set of RFC 5322), no quoted strings. `<`, `>`, `"`, `(`, `)`, `,`,
 * `;`, `:`, `\`, `[`, `]`, `@` and whitespace are outside it, so markup such as `<script>@x.io` never passes.
 */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** One DNS label (RFC 1035 letters, digits, hyphens; no hyphen at either end). */
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
/** A top-level domain: letters (two or more), or an IDN TLD in its punycode form. */
const TOP_LEVEL = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/**
 * Whether `email` is a deliverable-looking address: `local@domain.tld`, at most 254 characters (RFC 5321), a
 * local part of at most 64 dot-atom characters, a domain of at least two DNS labels ending in a real-looking TLD.
 * Not accepted, on purpose: quoted local parts, IP-literal domains, comments, unicode outside punycode domains.
 * Pure: it does not look the domain up.
 * @example isValidEmail('dev@example.com') // true
 * @example isValidEmail('<script>@x.io') // false
 */
export function isValidEmail(email: string): boolean {
  if (email.length > 254) return false;
  const at = email.lastIndexOf('@');
  if (at <= 0 || at > 64) return false;
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  const tld = labels[labels.length - 1] ?? '';
  return (
    LOCAL_PART.test(local) && labels.length >= 2 && labels.every((l) => DOMAIN_LABEL.test(l)) && TOP_LEVEL.test(tld)
  );
}

/**
 * The form an address is stored and compared in: trimmed and lower-cased, whole. The local part is case-sensitive
 * in theory only; every mail provider in use treats it otherwise, and `Dev@Example.com` must not get a second key.
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function newApiKey(): string {
  return `pmref_${randomBytes(16).toString('hex')}`;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

const HIT_TTL_MS = 5 * 60_000;
const MISS_TTL_MS = 5_000;

/** What asking for a key gives: a new key (its only appearance in clear), or the news that one was issued. */
export type KeyIssue = { issued: true; key: string; record: ApiKeyRecord } | { issued: false };

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

  /**
   * Issues a key for `email` (already validated) unless one was issued to that address before. The address is
   * stored normalized. On success returns the plain key: the only time it exists outside the client.
   */
  async create(email: string, dailyLimit: number): Promise<KeyIssue> {
    const key = newApiKey();
    const record: ApiKeyRecord = {
      key_hash: hashKey(key),
      email: normalizeEmail(email),
      daily_limit: dailyLimit,
      created_at: this.clock().toISOString(),
    };
    if ((await this.store.issueApiKey(record)) === 'email_taken') return { issued: false };
    this.cache.set(record.key_hash, { record, until: this.clock().getTime() + HIT_TTL_MS });
    return { issued: true, key, record };
  }
}
