/**
 * The human pages and screen artifacts (issue 10), built per read-model generation.
 *
 * Screen documents, CSVs and pages are built once per generation from the served market details the read
 * model already holds (no store query), in slices that yield to the event loop, and then served as bytes;
 * while a new generation's artifacts build, the previous generation's keep serving. Event pages need the
 * mark history and the canonical records, so they are rendered on demand from the store and kept in a
 * bounded per-generation cache.
 */
import { readFileSync } from 'node:fs';
import type { EligibilityScreenResult, Event, HistoryPoint, Market, ServedLogEntry } from '../../domain/index.ts';
import type { MarketHistoryService, ReadModel, ReadModelSource } from '../../serve/index.ts';
import {
  REGIMES,
  type Regime,
  type ScreenSubject,
  screenCsv,
  screenDocument,
  screenedMarkets,
} from '../../signals/screens/index.ts';
import type { Store } from '../../store/index.ts';
import { eventPage } from './event-page.ts';
import { dataSourceNotice } from './explorer-parts.ts';
import { page } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import { regimePage, screensIndexPage } from './screens-pages.ts';

export interface RegimeArtifacts {
  regime: Regime;
  json: Buffer;
  csv: Buffer;
  html: Buffer;
}

interface Artifacts {
  generation: number;
  regimes: Map<string, RegimeArtifacts>;
  indexHtml: Buffer;
  indexJson: Buffer;
}

const EVENT_PAGE_CACHE = 500;
const SLICE = 2000;

/** METHODOLOGY.md from the repository root (rendered at /methodology). */
export function methodologyMarkdown(): string {
  try {
    return readFileSync(new URL('../../../METHODOLOGY.md', import.meta.url), 'utf8');
  } catch {
    return '# Methodology\n\nMETHODOLOGY.md is missing from this installation.';
  }
}

interface ServedDetail {
  market_id: string;
  event_id: string | null;
  platform: Market['platform'];
  platform_market_id: string;
  question: string | null;
  status: Market['status'];
  resolve_at: string | null;
  close_at: string | null;
  resolution: { source_of_record: string | null; source: string | null };
  rcg: { grade: string } | null;
  eligibility_screens: EligibilityScreenResult[] | null;
}

/** A served market detail mapped back to what the screen artifacts read. */
function subjectOf(d: ServedDetail): ScreenSubject {
  return {
    market_id: d.market_id,
    event_id: d.event_id,
    platform: d.platform,
    platform_market_id: d.platform_market_id,
    question_raw: d.question,
    status: d.status,
    resolve_at: d.resolve_at,
    close_at: d.close_at,
    source_of_record: d.resolution.source_of_record,
    resolution_source: d.resolution.source,
    rcg: d.rcg && d.rcg.grade !== 'pending' ? { grade: d.rcg.grade } : null,
    eligibility_screens: d.eligibility_screens,
  };
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function buildArtifacts(model: ReadModel): Promise<Artifacts> {
  const subjects: ScreenSubject[] = [];
  let n = 0;
  for (const entry of model.marketById.values()) {
    const detail = entry.detail.value<ServedDetail>();
    if (detail.eligibility_screens) subjects.push(subjectOf(detail));
    if (++n % SLICE === 0) await yieldToLoop();
  }
  const eventsById = new Map<string, Event>();
  for (const entry of model.events) eventsById.set(entry.event.event_id, entry.event);
  const regimes = new Map<string, RegimeArtifacts>();
  const summaries = [];
  for (const regime of REGIMES) {
    const rows = screenedMarkets(regime, subjects, eventsById);
    const document = screenDocument(regime, rows);
    regimes.set(regime.regime, {
      regime,
      json: Buffer.from(JSON.stringify(document, null, 2)),
      csv: Buffer.from(screenCsv(rows), 'utf8'),
      html: Buffer.from(regimePage(regime, document, rows, model.origin)),
    });
    summaries.push({ regime, document });
    await yieldToLoop();
  }
  const index = {
    regimes: summaries.map(({ regime, document: d }) => ({
      regime: regime.regime,
      regime_name: regime.regime_name,
      screen_version: regime.screen_version,
      status: regime.status,
      scope: regime.scope.description,
      funnel: d.funnel,
      html: `${model.origin}/screens/${regime.regime}/`,
      json: `${model.origin}/screens/${regime.regime}.json`,
      csv: `${model.origin}/screens/${regime.regime}.csv`,
    })),
    join: 'svc_market_id = market_id',
  };
  return {
    generation: model.generation,
    regimes,
    indexHtml: Buffer.from(screensIndexPage(summaries, model.origin)),
    indexJson: Buffer.from(JSON.stringify(index, null, 2)),
  };
}

/** The event slug of every published twin of these markets (issue 17: event pages link their twins). */
function twinEventSlugs(model: ReadModel, markets: readonly Market[]): Map<string, string> {
  const slugs = new Map<string, string>();
  for (const m of markets) {
    for (const t of m.also_on ?? []) {
      const detail = model.marketById.get(t.market_id)?.detail.value<{ event_id: string | null }>();
      const twinEvent = detail?.event_id ? model.eventByKey.get(detail.event_id) : undefined;
      if (twinEvent) slugs.set(t.market_id, twinEvent.event.slug);
    }
  }
  return slugs;
}

export class SitePages {
  private artifacts: Artifacts | null = null;
  private building: Promise<Artifacts> | null = null;
  private buildingFor = -1;
  private eventPages = { generation: -1, pages: new Map<string, Buffer>() };
  private readonly methodologyHtml: Buffer;

  constructor(
    private readonly readModel: ReadModelSource,
    private readonly store: Store,
    methodologyMarkdown: string,
    /** The chart's data: each market's history as `GET /v1/markets/{id}/history` serves it. */
    private readonly history: MarketHistoryService,
  ) {
    this.methodologyHtml = Buffer.from(
      page({
        title: 'Methodology',
        description:
          'How pmref grades resolution clarity, commits sources, links questions across venues and detects signals.',
        body: renderMarkdown(methodologyMarkdown),
      }),
    );
  }

  /** The current artifacts: the previous generation's while a newer one builds, or the first build awaited. */
  private async current(): Promise<Artifacts> {
    const model = this.readModel.current();
    if (this.artifacts?.generation === model.generation) return this.artifacts;
    if (this.buildingFor !== model.generation) {
      this.buildingFor = model.generation;
      this.building = buildArtifacts(model).then((a) => {
        if (!this.artifacts || a.generation >= this.artifacts.generation) this.artifacts = a;
        return a;
      });
    }
    return this.artifacts ?? (this.building as Promise<Artifacts>);
  }

  async screensIndex(): Promise<{ html: Buffer; json: Buffer; generation: number }> {
    const a = await this.current();
    return { html: a.indexHtml, json: a.indexJson, generation: a.generation };
  }

  async regime(name: string): Promise<(RegimeArtifacts & { generation: number }) | null> {
    const a = await this.current();
    const r = a.regimes.get(name);
    return r ? { ...r, generation: a.generation } : null;
  }

  methodology(): Buffer {
    return this.methodologyHtml;
  }

  /** The event page for a slug or event id; null when no published event matches. */
  async event(slugOrId: string): Promise<Buffer | null> {
    const model = this.readModel.current();
    const entry = model.eventByKey.get(slugOrId);
    if (!entry) return null;
    if (this.eventPages.generation !== model.generation)
      this.eventPages = { generation: model.generation, pages: new Map() };
    const cached = this.eventPages.pages.get(entry.event.event_id);
    if (cached) return cached;
    const detail = entry.full.value<{ markets: Array<{ market_id: string }>; resolution_log: ServedLogEntry[] }>();
    const ids = detail.markets.map((m) => m.market_id);
    const markets = (await Promise.all(ids.map((id) => this.store.getMarket(id)))).filter(
      (m): m is Market => m !== null,
    );
    // The history route's own answer (its default range: 365 days up to each market's newest mark), so the chart
    // shows what the API serves, how each point was obtained included.
    const byMarket = new Map<string, HistoryPoint[]>();
    for (const id of ids) {
      const plan = await this.history.plan(id, {});
      if (plan) byMarket.set(id, (await this.history.history(plan)).points);
    }
    const notice = dataSourceNotice(model.dataSource);
    const html = Buffer.from(
      eventPage({
        event: entry.event,
        markets,
        marks: byMarket,
        log: detail.resolution_log,
        notice,
        twinEvents: twinEventSlugs(model, markets),
      }),
    );
    const pages = this.eventPages.pages;
    if (pages.size >= EVENT_PAGE_CACHE) {
      const oldest = pages.keys().next();
      if (!oldest.done) pages.delete(oldest.value);
    }
    pages.set(entry.event.event_id, html);
    return html;
  }
}
