export type { AppConfig, BuildAppOptions } from './app.ts';
export { BODY_LIMIT_BYTES, buildApp } from './app.ts';
export type { App, AppContext, HttpTick } from './context.ts';
export type { ErrorCode } from './errors.ts';
export { ApiError, ERROR_CODES, errorBody, statusOf } from './errors.ts';
export { hashKey, KeyRegistry, newApiKey } from './keys.ts';
export type { Limits, Meter, MeterResult, Tick } from './limits.ts';
export { defaultLimits, memoryMeter, redisMeter, secondsToUtcMidnight } from './limits.ts';
export { pickEncoding, secondsToNextRefresh } from './send.ts';
