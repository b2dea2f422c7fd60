/**
 * Wire errors (STYLE.md "Errors"): a closed set of codes, each mapped to a status by an exhaustive switch with
 * no default. Every error leaves the service in one shape, `{error, code, hint?, request_id}`; a 5xx carries
 * only a generic message and the request id (the log has the rest).
 */
import type { ErrorBody } from '../domain/index.ts';

export const ERROR_CODES = [
  'not_found',
  'event_not_found',
  'market_not_found',
  'signal_not_found',
  'question_not_found',
  'method_not_allowed',
  'invalid_body',
  'invalid_email',
  'invalid_request',
  'unsupported_media_type',
  'payload_too_large',
  'uri_too_long',
  'header_too_large',
  'request_timeout',
  'invalid_api_key',
  'key_already_issued',
  'rate_limited',
  'starting',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status of each code. Adding a code without a status here fails the type check. */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'invalid_body':
    case 'invalid_email':
    case 'invalid_request':
      return 400;
    case 'invalid_api_key':
      return 401;
    case 'not_found':
    case 'event_not_found':
    case 'market_not_found':
    case 'signal_not_found':
    case 'question_not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'key_already_issued':
      return 409;
    case 'request_timeout':
      return 408;
    case 'payload_too_large':
      return 413;
    case 'uri_too_long':
      return 414;
    case 'unsupported_media_type':
      return 415;
    case 'header_too_large':
      return 431;
    case 'rate_limited':
      return 429;
    case 'internal':
      return 500;
    case 'starting':
      return 503;
  }
}

/** A wire error a handler throws on purpose; the error handler turns it into the one error shape. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get status(): number {
    return statusOf(this.code);
  }
}

/** The error body for a code. */
export function errorBody(code: ErrorCode, message: string, requestId: string, hint?: string): ErrorBody {
  return { error: message, code, ...(hint ? { hint } : {}), request_id: requestId };
}

/** Ready-made errors with their served messages (served-shapes §1, §5, §8, §11). */
export const notFound = {
  path: () => new ApiError('not_found', 'Not found', 'Try / for the service index, /v1/events, or /docs.'),
  event: () =>
    new ApiError(
      'event_not_found',
      'Event not found',
      'Pass an event slug or SVC-EVT- id; find one with /v1/events?q=…',
    ),
  market: () =>
    new ApiError(
      'market_not_found',
      'Market not found',
      'Pass a service id (SVC-MKT-…), a venue-native id or ticker, or a venue market URL; find one via /v1/events?q=…',
    ),
  signal: () => new ApiError('signal_not_found', 'Signal not found', 'Try /v1/signals for the wire index.'),
  question: () =>
    new ApiError(
      'question_not_found',
      'Question not found',
      'Pass a pair id or question_id (SVCX-…, SVCR-…, SVCP-…) from /v1/questions.',
    ),
};
