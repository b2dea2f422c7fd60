// /docs loads the Scalar reference on its first request (issue 18). A reference that cannot be loaded must not fail
// silently: the request answers 500, the app's log says why (the routes themselves log nothing), and the next request
// tries again and serves once the load succeeds.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerDocs } from '../../src/site/docs.ts';

/** A Fastify app whose log lines are kept in `lines`. */
function appWithLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { app: Fastify({ logger: { level: 'info', stream } }), lines };
}

describe('/docs when the reference cannot be loaded', () => {
  it('answers 500, logs why on the app logger, and loads again on the next request', async () => {
    const { app, lines } = appWithLog();
    let calls = 0;
    await registerDocs(app, {
      load: async () => {
        calls++;
        if (calls === 1) throw new Error('Cannot find package @scalar/fastify-api-reference');
        return (await import('@scalar/fastify-api-reference')).default;
      },
    });
    try {
      const failed = await app.inject('/docs/');
      expect(failed.statusCode).toBe(500);
      const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message: string } });
      const entry = logged.find((l) => l.msg.startsWith('the API reference (/docs) could not be loaded'));
      expect(entry?.level).toBe(50);
      expect(entry?.err?.message).toBe('Cannot find package @scalar/fastify-api-reference');

      const served = await app.inject('/docs/');
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toContain('text/html');
      expect(calls).toBe(2);
      // Loaded once: later requests reuse the instance.
      expect((await app.inject('/docs/')).statusCode).toBe(200);
      expect(calls).toBe(2);
    } finally {
      await app.close();
    }
  });
});
