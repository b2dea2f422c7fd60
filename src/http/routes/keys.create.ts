/**
 * `POST /v1/keys` (spec §4.9, served-shapes §10): a free key, issued instantly, shown once. One key per email
 * address (asking again is 409 `key_already_issued`: the key is stored only as a hash and is never shown again);
 * a limited number of creations per client IP per UTC day (PMREF_KEY_CREATION_DAILY_LIMIT, default 3), counted
 * for every well-formed request, a refused duplicate included, so the endpoint cannot be used to test addresses
 * in bulk.
 */
import { KeyCreatedSchema, KeyRequestSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { isValidEmail } from '../keys.ts';
import { clientIp } from '../metering.ts';
import { sendJson } from '../send.ts';
import { errorResponses } from './schemas.ts';

export const createKeyRoute = {
  method: 'POST',
  url: '/v1/keys',
  schema: {
    operationId: 'createKey',
    tags: ['keys'],
    summary: 'Create a free key',
    description:
      'Issues a key instantly (no confirmation step). The key is returned once and stored only as a hash. ' +
      'Send it as `Authorization: Bearer <key>` or `?key=<key>` for the keyed daily limit (10,000 requests/day ' +
      'unless the operator set another). One key per email address (compared in lower case): asking again for ' +
      'the same address answers 409 `key_already_issued` and issues nothing. Key creation is limited per IP per ' +
      'UTC day (3 unless the operator set another); the body must be JSON under 4 KB.',
    body: KeyRequestSchema,
    response: {
      201: KeyCreatedSchema,
      ...errorResponses('invalid_email', 'key_already_issued', 'payload_too_large', 'unsupported_media_type'),
    },
  },
  // The handler judges the body itself so a bad email is `invalid_email`, not a generic validation error.
  attachValidation: true,
} as const;

export function registerCreateKey(app: App, ctx: AppContext): void {
  app.route({
    ...createKeyRoute,
    handler: async (req, reply) => {
      const raw: unknown = req.body;
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        throw new ApiError('invalid_body', 'Body must be a JSON object: { "email": "you@example.com" }');
      }
      const given = (raw as { email?: unknown }).email;
      const email = typeof given === 'string' ? given.trim() : '';
      if (!isValidEmail(email)) {
        throw new ApiError('invalid_email', 'A valid email is required, e.g. { "email": "you@example.com" }');
      }
      const r = await ctx.limits.meter.consume(
        `keys-ip:${clientIp(req.raw, ctx.trustProxy)}`,
        ctx.limits.keyCreationDaily,
        ctx.tick(),
      );
      if (!r.allowed) {
        throw new ApiError(
          'rate_limited',
          `Key creation limit reached: ${r.limit} keys per IP per day`,
          'Use a key you already have; the count resets at 00:00 UTC.',
          { 'retry-after': String(r.resetSeconds) },
        );
      }
      const issue = await ctx.keys.create(email, ctx.limits.keyDaily);
      if (!issue.issued) {
        throw new ApiError(
          'key_already_issued',
          'A key was already issued to this email address',
          'Keys are stored only as hashes, so it cannot be shown again: keep using it (Authorization: Bearer ' +
            `<key>). Anonymous access needs no key (${ctx.limits.anonDaily.toLocaleString('en-US')} requests/day per IP).`,
        );
      }
      const body = {
        key: issue.key,
        email: issue.record.email,
        daily_limit: issue.record.daily_limit,
        usage:
          'Optional: anonymous access works too. Send Authorization: Bearer <key> or ?key=<key> for the higher limit.',
      };
      return sendJson(req, reply, 201, body);
    },
  });
}
