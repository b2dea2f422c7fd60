export {
  CHANGES_DEFAULT_LIMIT,
  CHANGES_MAX_LIMIT,
  CHANGES_REPLAY_BOUND,
  ChangeFeed,
  ChangesQueryError,
  parseSeq,
  resumeUrlFor,
} from './change-feed.ts';
export { collectGarbage } from './gc.ts';
export type { ContentEncoding } from './json-bytes.ts';
export {
  Body,
  ByteArena,
  COMPRESS_MIN_BYTES,
  etagFor,
  objectWithArray,
  objectWithArrayBytes,
  ownBytes,
  prependKeys,
  prettyAt,
} from './json-bytes.ts';
export {
  HISTORY_DEFAULT_DAYS,
  HISTORY_MAX_DAYS,
  HistoryQueryError,
  MarketHistoryService,
} from './market-history.ts';
export type { MarketCatalog, MarketQuery, MarketRow } from './market-list.ts';
export { MARKETS_DEFAULT_LIMIT, MARKETS_MAX_LIMIT, MarketQueryError } from './market-list.ts';
export { refCandidates, resolveMarketRef } from './market-ref.ts';
export type { ServedMark } from './marks-feed.ts';
export { MARKS_DEFAULT_LIMIT, MARKS_MAX_LIMIT, MarksFeed, MarksQueryError } from './marks-feed.ts';
export type { DayMark, MoverCandidates, MoverMarket } from './movers.ts';
export { moverCandidates } from './movers.ts';
export { noticeFor } from './notice.ts';
export { readPack, writePack } from './pack.ts';
export { packPathFor } from './pack-file.ts';
export type { Clamped, Raw } from './params.ts';
export { clampInt, clampMinMult, clampOffset } from './params.ts';
export type { EventQuery, ReadModelSource, SignalQuery } from './query-service.ts';
export { QueryService } from './query-service.ts';
export type { ParsedQuestionQuery, QuestionEntry, QuestionIndex, QuestionQuery } from './questions.ts';
export {
  divergenceOf,
  QUESTIONS_DEFAULT_LIMIT,
  QUESTIONS_MAX_LIMIT,
  QuestionQueryError,
  RELATIONS,
} from './questions.ts';
export type { BuildOptions, EventEntry, MarketEntry, ReadModel } from './read-model.ts';
export { buildReadModel } from './read-model.ts';
export type { HolderOptions } from './read-model-holder.ts';
export { ReadModelHolder } from './read-model-holder.ts';
export { marketIdForRef, resolveRef } from './resolve.ts';
export { MAX_REF_LENGTH } from './resolve-ref.ts';
export type { IndexedDocs, SearchOutcome } from './search/engine.ts';
export { SearchIndex } from './search/engine.ts';
export type { PriceFacts, ServedSummary } from './serialize.ts';
export { isLiveMarket, priceFacts } from './serialize.ts';
export type { StatsEntry } from './stats.ts';
export type { StatusInputs, StoreView } from './status.ts';
export { readStoreView, StatusService, serviceStatus } from './status.ts';
export { diffWords } from './word-diff.ts';
