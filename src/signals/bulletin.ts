/**
 * Assembles a SignalBulletin from a detector's draft: the slug (kind + target + date, so a re-run on
 * the same day yields the same slug and the store keeps the first), the record id, the venues, the
 * atomic claims, and the fixed envelope fields. Every bulletin is validated before it leaves.
 */
import { createHash } from 'node:crypto';
import {
  type Event,
  type Market,
  SCHEMA_VERSION,
  type SignalBulletin,
  SignalBulletinSchema,
  type SignalCategoryTag,
  type SignalKind,
  type Venue,
} from '../domain/index.ts';
import { slugPart } from './format.ts';
import { type BulletinSource, uniqueSources } from './sources.ts';

/** JSON Schema of the bulletin record, as the site serves it (relative: the pipeline does not know the public origin). */
export const SIGNAL_SCHEMA_ID = '/schemas/signals.json';
/** Version of the provenance tiers used in numbers[] and atomic_claims (direct, mediated, derived, editorial). */
export const SIGNAL_PROVENANCE_VERSION = '1';
export const SIGNAL_LICENSE = 'CC-BY-4.0';

export type NumberProvenance = 'direct' | 'mediated' | 'derived' | 'editorial';

/** One number that triggered a bulletin, with where it was read. */
export interface SignalNumber {
  name: string;
  value: number | null;
  unit: string | null;
  provenance: NumberProvenance;
  source: string | null;
}

export interface PricedMarket {
  market: Market;
  price: number | null;
}

/** What a detector decides; `makeBulletin` adds the rest. */
export interface BulletinDraft {
  kind: SignalKind;
  categoryTag: SignalCategoryTag;
  /** The slug's target part: a question id, market id, event slug or tag. */
  target: string;
  event: Event;
  linkedEvents: readonly Event[];
  primary: PricedMarket;
  related: readonly PricedMarket[];
  headline: string;
  bullets: readonly string[];
  numbers: readonly SignalNumber[];
  sources: readonly BulletinSource[];
  secondaryTags: readonly string[];
  preNews?: SignalBulletin['pre_news_classification'];
  /** Run time (published_at) and its UTC date (the slug's date). */
  now: string;
  today: string;
}

/**
 * The deterministic slug: kind, target and date. Re-runs on the same day collide on purpose.
 * @example signalSlug('volume_spike', 'fed-decision-april', '2026-04-20') // 'volume-spike-fed-decision-april-2026-04-20'
 */
export function signalSlug(kind: SignalKind, target: string, date: string): string {
  return `${kind.replaceAll('_', '-')}-${slugPart(target) || 'target'}-${date}`;
}

/** Stable record id from the slug. */
export function signalRecordId(slug: string): string {
  return `SVC-SIG-${createHash('sha256').update(slug, 'utf8').digest('hex').slice(0, 12).toUpperCase()}`;
}

const grade = (m: Market): string | null => m.rcg?.grade ?? null;

function claimType(name: string): string {
  if (name.startsWith('spot')) return 'benchmark';
  if (/(^|_)price(_|$)|probability/.test(name)) return 'price';
  if (name.includes('volume')) return 'volume';
  if (/^(markets|events)_/.test(name)) return 'count';
  if (name.includes('catalyst') || name.includes('days')) return 'timing';
  return 'metric';
}

/** Builds and validates the bulletin; throws (a bug, not data) when a draft breaks the schema. */
export function makeBulletin(d: BulletinDraft): SignalBulletin {
  const slug = signalSlug(d.kind, d.target, d.today);
  const venues = new Set<Venue>([d.primary.market.platform, ...d.related.map((r) => r.market.platform)]);
  const linked = [...new Set(d.linkedEvents.map((e) => e.event_id))].filter((id) => id !== d.event.event_id).sort();
  const bulletin: SignalBulletin = {
    $schema: SIGNAL_SCHEMA_ID,
    record_id: signalRecordId(slug),
    record_slug: slug,
    schema_version: `v${SCHEMA_VERSION}`,
    provenance_version: SIGNAL_PROVENANCE_VERSION,
    published_at: d.now,
    headline: d.headline,
    category_tag: d.categoryTag,
    secondary_tags: [...new Set(d.secondaryTags)].sort(),
    detection_path: d.kind,
    pre_news_classification: d.preNews ?? 'concurrent',
    target_event_id: d.event.event_id,
    target_event_slug: d.event.slug,
    event_question: d.event.question,
    linked_event_ids: linked,
    venues: [...venues].sort(),
    primary_market: {
      market_id: d.primary.market.market_id,
      platform: d.primary.market.platform,
      platform_market_id: d.primary.market.platform_market_id,
      question_raw: d.primary.market.question_raw,
      current_price: d.primary.price,
      grade: grade(d.primary.market),
    },
    related_markets: d.related.map((r) => ({
      market_id: r.market.market_id,
      platform: r.market.platform,
      question_raw: r.market.question_raw,
      current_price: r.price,
      grade: grade(r.market),
    })),
    bullets: [...d.bullets],
    atomic_claims: d.numbers.map((n) => ({
      type: claimType(n.name),
      text: `${n.name} = ${n.value === null ? 'null' : n.value}${n.unit ? ` ${n.unit}` : ''}${n.source ? ` (${n.source})` : ''}`,
      field_provenance: n.provenance,
    })),
    numbers: d.numbers.map((n) => ({ ...n })),
    sources: uniqueSources(d.sources),
    license: SIGNAL_LICENSE,
  };
  return SignalBulletinSchema.parse(bulletin);
}
