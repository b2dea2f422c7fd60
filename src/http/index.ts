export type { AppConfig, BuildAppOptions } from './app.ts';
export { BODY_LIMIT_BYTES, buildApp } from './app.ts';
export type { App, AppContext, HttpTick } from './context.ts';
export type { ErrorCode } from './errors.ts';
export { ApiError, ERROR_CODES, errorBody, statusOf } from './errors.ts';
export { type FirstStartServer, startFirstStartServer } from './first-start-server.ts';
export { hashKey, KeyRegistry, newApiKey } from './keys.ts';
export type { Limits, Meter, MeterHealth, MeterLog, MeterResult, RedisMeterOptions, Tick } from './limits.ts';
export {
  defaultLimits,
  memoryMeter,
  OUTAGE_LOG_EVERY_MS,
  REDIS_COUNTER_OPTIONS,
  redisMeter,
  secondsToUtcMidnight,
} from './limits.ts';
export { pickEncoding, secondsToNextRefresh } from './send.ts';
