// Over real HTTP, /v1/questions, /v1/questions/{id} and /v1/stats answer with their documented schemas, ETag/304 and RateLimit headers like every data route, and refuse bad numbers (400) and unknown ids (404) in the one error shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairIdFor } from '../../src/domain/index.ts';
import { mElectA, mElectB, Q_COMP, Q_SAME, seedQuestionStore } from '../serve/questions-seed.ts';
import { call, type Got, ResponseValidator, type Started, startServer } from './rest-helpers.ts';

let s: Started;
let v: ResponseValidator;

beforeAll(async () => {
  s = await startServer({ store: await seedQuestionStore() });
  const doc = await call(s.base, '/openapi.json');
  v = new ResponseValidator(doc.body as Record<string, unknown>);
});
afterAll(async () => {
  await s.close();
});

async function api(template: string, path: string, init: RequestInit = {}): Promise<Got> {
  const got = await call(s.base, path, init);
  if (got.status !== 304) v.check('GET', template, got.status, got.body);
  return got;
}

const ids = (got: Got) => (got.body as { questions: Array<{ id: string }> }).questions.map((q) => q.id);

describe('GET /v1/questions', () => {
  it('lists the pairs by divergence, with ETag, 304 and RateLimit headers', async () => {
    const got = await api('/v1/questions', '/v1/questions');
    expect(got.status).toBe(200);
    expect(ids(got)).toEqual([Q_COMP, Q_SAME, pairIdFor('related', mElectA.market_id, mElectB.market_id)]);
    expect(got.headers.get('ratelimit-limit')).toBe('1000');
    expect(got.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const etag = got.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"g1-/);
    const again = await call(s.base, '/v1/questions', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(Number(again.headers.get('ratelimit-remaining'))).toBeLessThan(
      Number(got.headers.get('ratelimit-remaining')),
    );
  });

  it('filters, and answers an unknown relation with 200, an empty page and a notice', async () => {
    expect(ids(await api('/v1/questions', '/v1/questions?relation=same&min_divergence=1'))).toEqual([Q_SAME]);
    const unknown = await api('/v1/questions', '/v1/questions?relation=twin');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({
      total: 0,
      questions: [],
      notice: { reason: expect.stringContaining('related') },
    });
  });

  it('refuses a malformed number with 400 in the one error shape, without echoing it', async () => {
    for (const q of ['min_divergence=-2', 'min_divergence=%3Cb%3E', 'limit=0', 'offset=x']) {
      const got = await api('/v1/questions', `/v1/questions?${q}`);
      expect(got.status, q).toBe(400);
      expect(got.body).toMatchObject({
        code: 'invalid_request',
        error: expect.any(String),
        request_id: expect.any(String),
      });
      expect(got.text).not.toContain('<b>');
    }
  });
});

describe('GET /v1/questions/{id}', () => {
  it('serves the side-by-side view with the rules diff, and 304 on its ETag', async () => {
    const got = await api('/v1/questions/{question_id}', `/v1/questions/${Q_SAME}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: Q_SAME, relation: 'same', rules_diff: { exact: true } });
    const again = await call(s.base, `/v1/questions/${Q_SAME}`, {
      headers: { 'if-none-match': got.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('is 404 question_not_found for an unknown id', async () => {
    const got = await api('/v1/questions/{question_id}', '/v1/questions/SVCX-FFFFFFFFFF');
    expect(got.status).toBe(404);
    expect(got.body).toMatchObject({ code: 'question_not_found', hint: expect.stringContaining('/v1/questions') });
  });
});

describe('GET /v1/stats', () => {
  it('serves the precomputed stats with its documented schema', async () => {
    const got = await api('/v1/stats', '/v1/stats');
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      markets: 7,
      questions: { pairs: 3, by_relation: { same: 1, complement: 1, related: 1 } },
      disputes: { all: { markets: 2, disputed: 1, rate: 0.5 } },
    });
    expect(got.headers.get('etag')).toMatch(/^"g1-/);
  });
});
