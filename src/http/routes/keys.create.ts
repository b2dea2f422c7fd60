/** `POST /v1/keys` (spec §4.9, served-shapes §10): a free key, issued instantly, shown once. */
import { KeyCreatedSchema, KeyRequestSchema } from '../../domain/index.ts';
import type { App, AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { EMAIL_PATTERN } from '../keys.ts';
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
      'Send it as `Authorization: Bearer <key>` or `?key=<key>` for 10,000 requests/day. Key creation is limited ' +
      'per IP per UTC day; the body must be JSON under 4 KB.',
    body: KeyRequestSchema,
    response: {
      201: KeyCreatedSchema,
      ...errorResponses('invalid_email', 'payload_too_large', 'unsupported_media_type'),
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
      const email = (raw as { email?: unknown }).email;
      if (typeof email !== 'string' || email.length > 254 || !EMAIL_PATTERN.test(email.trim())) {
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
      const { key, record } = await ctx.keys.create(email.trim(), ctx.limits.keyDaily);
      const body = {
        key,
        email: record.email,
        daily_limit: record.daily_limit,
        usage:
          'Optional: anonymous access works too. Send Authorization: Bearer <key> or ?key=<key> for the higher limit.',
      };
      return sendJson(req, reply, 201, body);
    },
  });
}
