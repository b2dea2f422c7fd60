/**
 * Route-level zod pieces shared by the route files: the lenient query parameters (documented values, but an
 * unknown value is a 200 with a notice, never a 400: spec §4.2, §7) and the error responses.
 */
import { z } from 'zod';
import { ErrorBodySchema } from '../../domain/index.ts';
import { type ErrorCode, statusOf } from '../errors.ts';

/** A query parameter that never fails validation; its documentation names the valid values. */
export const lenient = (description: string, example?: string) => {
  const s = z.string().optional().describe(description);
  return example === undefined ? s : s.meta({ example });
};

export const keyParam = () =>
  lenient('Optional API key (same as Authorization: Bearer <key>); raises the daily limit.');

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: the message says what to fix.',
  401: 'Invalid API key: omit it for anonymous access or create one with POST /v1/keys.',
  404: 'Not found.',
  405: 'Method not allowed.',
  409: 'A key was already issued to this email address; it is not shown again.',
  413: 'Request body too large.',
  415: 'Unsupported media type.',
  429: 'Daily rate limit exceeded; see Retry-After and RateLimit-Reset.',
  500: 'Internal error: the body carries only a request id.',
};

/** Error responses for the given codes (plus 429 and 500, which every metered route can answer). */
export function errorResponses(...codes: ErrorCode[]): Record<number, typeof ErrorBodySchema> {
  const out: Record<number, typeof ErrorBodySchema> = {};
  for (const code of [...codes, 'rate_limited', 'internal'] as ErrorCode[]) {
    out[statusOf(code)] = ErrorBodySchema.describe(ERROR_DESCRIPTIONS[statusOf(code)] ?? 'Error');
  }
  return out;
}
