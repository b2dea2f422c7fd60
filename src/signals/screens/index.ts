export type { ScreenDocument, ScreenedMarket, ScreenSubject } from './artifacts.ts';
export { resultFor, SCREEN_CSV_COLUMNS, screenCsv, screenDocument, screenedMarkets } from './artifacts.ts';
export type { ScreenOutcome } from './evaluate.ts';
export { evaluateScreen, inRegimeScope, isUnderMinMaturity, stoppedAtMaturity } from './evaluate.ts';
export type { Regime, ScreenRule } from './regime.ts';
export { parseRegime, REGIMES, RegimeSchema } from './regime.ts';
