/**
 * A stored market read by its catalog entry (record-codec.ts `MARKET_ENTRY_FIELDS`, issue 18): the record a
 * pipeline run reads of every stored market. Its entry fields and shared parts are there at once; the first use of
 * anything else (another field, `in` on another field, its keys, a spread, JSON.stringify, an assignment, a delete)
 * reads the whole record from the body it was read with and from then on it is that record, its keys in the
 * record's own order. So a caller cannot tell it from a record read whole, except by cost: a run that derives,
 * diffs or writes 5% of the markets inflates and parses about that share of bodies instead of all of them.
 *
 * It is a Proxy: it cannot be posted to another thread or structured-cloned (none of the pipeline's records is).
 */
import { MARKET_ENTRY_FIELDS, MARKET_LAYOUT } from './record-codec.ts';

type Fields = Record<string | symbol, unknown>;

const ENTRY_KEYS: ReadonlySet<string | symbol> = new Set<string>([...MARKET_ENTRY_FIELDS, ...MARKET_LAYOUT.parts]);

/**
 * The shape of every target: each entry key, in one order, undefined until set. A target built key by key from `{}`
 * ends up a dictionary (V8 stops giving an object fast properties after a dozen or so added by computed name). On the
 * full simulated universe, targets copied from this one (so sharing one hidden class) took the lazy listing's heap
 * from 139 to 85 MB, and a field read through the Proxy from about 150 ns to 55–85 ns (issue 18). An entry value is
 * never undefined (it comes from JSON), so a key holding undefined is a field the record lacks until the whole record
 * is read (`has` below).
 */
const TARGET_SHAPE: Readonly<Fields> = Object.fromEntries([...ENTRY_KEYS].map((key) => [key, undefined]));

/** Each lazy record's target → how to read its whole record, until it has been read. */
const pending = new WeakMap<Fields, () => Fields>();

/** Each lazy record's target → its whole record, once read (the target itself once frozen or sealed). */
const wholes = new WeakMap<Fields, Fields>();

/** Each lazy record → its target, for `readWhole`. */
const targets = new WeakMap<object, Fields>();

/**
 * The whole record of a target, read on first call. The values the target already gave out are the ones it keeps
 * (the same, read from the entry: so a value a caller holds is still the record's), then the rest of the record.
 */
function whole(target: Fields): Fields {
  const known = wholes.get(target);
  if (known !== undefined) return known;
  const read = pending.get(target) as () => Fields;
  const record = read();
  for (const key of Reflect.ownKeys(target)) if (key in record && target[key] !== undefined) record[key] = target[key];
  pending.delete(target);
  wholes.set(target, record);
  return record;
}

/**
 * The handler of every lazy record. The target holds the entry's fields, kept equal to the whole record's once it
 * is read (every change goes to both), so they are read from the target first; anything else reads the whole
 * record, once, and from then on comes from it (a plain object, so its fields stay fast to read). Freezing or
 * sealing a record copies the whole record into the target first, as a Proxy's invariants ask of a non-extensible
 * target.
 */
const handler: ProxyHandler<Fields> = {
  get(target, key) {
    const value = target[key];
    if (value !== undefined) return value;
    if (!ENTRY_KEYS.has(key)) return whole(target)[key];
    return wholes.get(target)?.[key];
  },
  has(target, key) {
    if (!ENTRY_KEYS.has(key)) return key in whole(target);
    const record = wholes.get(target);
    return record === undefined ? target[key] !== undefined : key in record;
  },
  ownKeys: (target) => Reflect.ownKeys(whole(target)),
  getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(whole(target), key),
  set(target, key, value) {
    const done = Reflect.set(whole(target), key, value);
    if (done && ENTRY_KEYS.has(key) && target !== wholes.get(target)) target[key] = value;
    return done;
  },
  deleteProperty(target, key) {
    const done = Reflect.deleteProperty(whole(target), key);
    if (done && ENTRY_KEYS.has(key) && target !== wholes.get(target)) target[key] = undefined;
    return done;
  },
  defineProperty(target, key, descriptor) {
    const done = Reflect.defineProperty(whole(target), key, descriptor);
    if (done && ENTRY_KEYS.has(key) && target !== wholes.get(target)) {
      const record = wholes.get(target) as Fields;
      target[key] = key in record ? record[key] : undefined;
    }
    return done;
  },
  preventExtensions(target) {
    const record = whole(target);
    if (record !== target) {
      for (const key of Reflect.ownKeys(target)) delete target[key];
      Object.assign(target, record);
      wholes.set(target, target);
    }
    return Reflect.preventExtensions(target);
  },
};

/**
 * A record that reads as `entry` (its entry fields and shared parts, copied into a target of TARGET_SHAPE) until anything
 * else of it is used, and then as `read()` (the whole record, which must agree with `entry` on those fields).
 * @example lazyRecord<Market>({ market_id: 'm1' }, () => wholeMarket).rcg // reads the whole record
 */
export function lazyRecord<T extends object>(entry: Record<string, unknown>, read: () => object): T {
  const target: Fields = { ...TARGET_SHAPE };
  for (const key in entry) target[key] = entry[key];
  pending.set(target, read as () => Fields);
  const proxy = new Proxy(target, handler);
  targets.set(proxy, target);
  return proxy as T;
}

/** False for a lazy record whose whole record has not been read yet; true for every other value. */
export function readWhole(record: object): boolean {
  const target = targets.get(record);
  return target === undefined || !pending.has(target);
}

/**
 * The plain object behind a lazy record, its whole record read (the record itself for any other value): for code
 * that walks every field of a record, which through the Proxy would go through a trap for each.
 */
export function wholeRecord<T extends object>(record: T): T {
  const target = targets.get(record);
  return target === undefined ? record : (whole(target) as T);
}
