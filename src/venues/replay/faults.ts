/**
 * Fault injection for the replay server: `venue_a:5xx`, `venue_b:429:retry-after=1`,
 * `venue_a:timeout`, `venue_b:malformed`, `venue_a:truncated`, `venue_b:unknown-fields`,
 * `clob:slow:delay=500`, each optionally with `:after=N` (let N requests through first) and
 * `:count=N` (inject N times, default every time). Several rules are separated by commas.
 */

export const FAULT_MODES = ['5xx', '429', 'timeout', 'slow', 'malformed', 'truncated', 'unknown-fields'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];
export const FAULT_TARGETS = ['venue_a', 'venue_b', 'gamma', 'clob', 'spot', 'all'] as const;
export type FaultTarget = (typeof FAULT_TARGETS)[number];

export interface FaultRule {
  target: FaultTarget;
  mode: FaultMode;
  /** Requests to the target let through before the fault starts. */
  after: number;
  /** How many times to inject; Infinity = every matching request. */
  count: number;
  /** 429: the Retry-After header in seconds. */
  retryAfterS: number;
  /** 5xx: the status sent. */
  status: number;
  /** slow: delay before a normal answer; timeout: how long to hold before answering (default: never). */
  delayMs: number | null;
}
export type FaultSpec = FaultRule[];

/**
 * Parses a fault spec string; throws an Error naming the bad part and the accepted forms.
 * @example parseFaultSpec('venue_b:429:retry-after=1:count=2')
 */
export function parseFaultSpec(spec: string): FaultSpec {
  const rules: FaultSpec = [];
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [target, mode, ...opts] = part.split(':');
    if (!FAULT_TARGETS.includes(target as FaultTarget)) {
      throw new Error(`fault "${part}": target must be one of ${FAULT_TARGETS.join(', ')}`);
    }
    if (!FAULT_MODES.includes(mode as FaultMode)) {
      throw new Error(`fault "${part}": mode must be one of ${FAULT_MODES.join(', ')}`);
    }
    const rule: FaultRule = {
      target: target as FaultTarget,
      mode: mode as FaultMode,
      after: 0,
      count: Number.POSITIVE_INFINITY,
      retryAfterS: 1,
      status: 503,
      delayMs: mode === 'slow' ? 2000 : null,
    };
    for (const o of opts) {
      const [k, v] = o.split('=');
      const n = Number(v);
      if (v === undefined || v === '' || !Number.isFinite(n) || n < 0) {
        throw new Error(`fault "${part}": option "${o}" must be name=non-negative number`);
      }
      if (k === 'after') rule.after = Math.floor(n);
      else if (k === 'count') rule.count = Math.floor(n);
      else if (k === 'retry-after') rule.retryAfterS = n;
      else if (k === 'status' && n >= 500 && n <= 599) rule.status = Math.floor(n);
      else if (k === 'delay') rule.delayMs = n;
      else throw new Error(`fault "${part}": unknown option "${k}" (after, count, retry-after, status=5xx, delay)`);
    }
    rules.push(rule);
  }
  return rules;
}

/** Which fault targets a served path belongs to. */
export function targetsOf(path: string): FaultTarget[] {
  if (path.startsWith('/venue_a/')) return ['venue_a', 'all'];
  if (path.startsWith('/venue_b/gamma')) return ['venue_b', 'gamma', 'all'];
  if (path.startsWith('/venue_b/clob')) return ['venue_b', 'clob', 'all'];
  if (path.startsWith('/spot/')) return ['spot', 'all'];
  return ['all'];
}

/** Stateful picker: counts requests per rule and says which fault (if any) applies to this one. */
export class FaultInjector {
  private readonly seen: number[];
  private readonly applied: number[];
  injected = 0;
  constructor(private readonly rules: FaultSpec) {
    this.seen = rules.map(() => 0);
    this.applied = rules.map(() => 0);
  }
  pick(path: string): FaultRule | null {
    const targets = targetsOf(path);
    let chosen: FaultRule | null = null;
    for (let i = 0; i < this.rules.length; i++) {
      const r = this.rules[i];
      if (!r || !targets.includes(r.target)) continue;
      const seen = (this.seen[i] ?? 0) + 1;
      this.seen[i] = seen;
      const applied = this.applied[i] ?? 0;
      if (chosen || seen <= r.after || applied >= r.count) continue;
      this.applied[i] = applied + 1;
      chosen = r;
    }
    if (chosen) this.injected++;
    return chosen;
  }
}

/** Adds an unknown field to every object in a response body (clients must ignore it). */
export function withUnknownFields(v: unknown, depth = 0): unknown {
  if (depth > 8) return v;
  if (Array.isArray(v)) return v.map((x) => withUnknownFields(x, depth + 1));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = withUnknownFields(x, depth + 1);
  out.x_replay_unknown_field = { injected: true, depth };
  return out;
}
