/**
 * Seeded pseudo-random numbers for the simulated universe. Nothing in the generator may call
 * Math.random() or read the clock: the same seed must give byte-identical files.
 *
 * `fork(label)` derives an independent stream from (seed, label), so a market's history depends
 * only on its own identity and not on how many draws happened before it.
 */

/** 32-bit FNV-1a over a string, then mixed; used to turn labels into stream seeds. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** sfc32: small, fast, good enough for simulation, and trivially reproducible in any language. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | null = null;

  constructor(readonly label: string) {
    this.a = hash32(`a:${label}`);
    this.b = hash32(`b:${label}`);
    this.c = hash32(`c:${label}`);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An independent stream named by this stream's label plus `sub`. */
  fork(sub: string): Rng {
    return new Rng(`${this.label}/${sub}`);
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  float(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight; `entries` is a list of [value, weight]. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let x = this.next() * total;
    for (const [v, w] of entries) {
      x -= w;
      if (x < 0) return v;
    }
    const last = entries[entries.length - 1];
    if (!last) throw new Error('weighted pick from an empty list');
    return last[0];
  }

  /** Standard normal (Box–Muller, caching the spare). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median and log-sd. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** `n` distinct items in random order (n clamped to the list length). */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = items.slice();
    const k = Math.min(n, copy.length);
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy.slice(0, k);
  }

  /** Lower-case hex string of `n` characters. */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += ((this.next() * 4294967296) >>> 0).toString(16).padStart(8, '0');
    return s.slice(0, n);
  }

  /** Decimal digit string of `n` characters with a non-zero first digit. */
  digits(n: number): string {
    let s = String(1 + Math.floor(this.next() * 9));
    while (s.length < n) s += String(Math.floor(this.next() * 10));
    return s;
  }
}
