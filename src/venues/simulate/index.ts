/** The simulated universe generator (issue 4): what leaves `src/venues/simulate/`. */
export { type GenerateOptions, type GenerateProgress, generateHistory, generateUniverse } from './generate.ts';
export type { Manifest, TrapKind, TruthPair } from './model.ts';
export { changeAt, type PerturbOptions, type PerturbReport, perturbSnapshot } from './perturb.ts';
export { TARGETS } from './plan.ts';
