/**
 * The editorial layer (DESIGN.md §4 step 3). Pure: no clock, no I/O.
 *
 * deriveEvent: for one normalized event and its markets, fills the resolution judgment (sources,
 * commitment, arbitration, triggers, RCG — issue 5) and the canon (bundle, references, claim key,
 * question_id, primary market — issue 6).
 * linkAcrossVenues: after every event is derived, sets each market's `also_on` from shared question_ids.
 */
export type { EditorialInput, EditorialOutput, MarkSummary, RepriceEventInput } from './derive.ts';
export { deriveEvent, judgedMarket, linkAcrossVenues, repriceEvent } from './derive.ts';
