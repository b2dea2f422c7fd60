/** Replay of recorded venue responses, with fault injection (DESIGN.md §3). */
export type { FaultMode, FaultRule, FaultSpec, FaultTarget } from './faults.ts';
export { parseFaultSpec } from './faults.ts';
export type { ReplayData, ReplayFileReport } from './load.ts';
export { loadReplayData } from './load.ts';
export type { ReplayServer, ReplayServerOptions, ReplayStats } from './server.ts';
export { startReplayServer } from './server.ts';
