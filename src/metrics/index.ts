/**
 * Prometheus metrics (issue 19): one registry per process, request and rate-limiter metrics of the HTTP face,
 * read-model gauges of a serving process, pipeline and venue metrics from delivered run summaries, and the
 * separate endpoint that serves them. Imported by the HTTP face (its hooks) and the commands (wiring); never by
 * the pipeline, whose runs reach the metrics only as the summaries its worker delivers.
 */
export type { LimiterFallbackReason, MeterHealthSource, RouteRecorder } from './http-metrics.ts';
export { HttpMetrics, UNMATCHED_ROUTE } from './http-metrics.ts';
export { PipelineMetrics, pipelineMetrics } from './pipeline-metrics.ts';
export type { ReadModelFacts } from './read-model-metrics.ts';
export { readModelMetrics } from './read-model-metrics.ts';
export { createMetricsRegistry } from './registry.ts';
export type { MetricsLogger, MetricsServer } from './server.ts';
export { startMetricsServer } from './server.ts';
