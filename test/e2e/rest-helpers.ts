/** Helpers for the REST e2e tests: a started server on the seeded store, and OpenAPI response validation. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { App, Limits } from '../../src/http/index.ts';
import { buildApp } from '../../src/http/index.ts';
import { ReadModelHolder } from '../../src/serve/index.ts';
import type { Store } from '../../src/store/index.ts';
import { NOW, seedStore } from '../serve/seed.ts';

export const ORIGIN = 'http://pmref.test';

export interface Started {
  app: App;
  base: string;
  store: Store;
  holder: ReadModelHolder;
  close(): Promise<void>;
}

export interface StartOptions {
  limits?: Limits;
  store?: Store;
  trustProxy?: boolean;
  logRequests?: boolean;
  /** Runs on the built app before it listens (e.g. to add a hook). */
  beforeListen?: (app: App) => void;
}

/** Seeds a store, builds the read model and app, and listens on a free port. */
export async function startServer(opts: StartOptions = {}): Promise<Started> {
  const store = opts.store ?? (await seedStore());
  const holder = await ReadModelHolder.create(store, { origin: ORIGIN, clock: () => NOW });
  const app = await buildApp({
    store,
    readModel: holder,
    config: {
      origin: ORIGIN,
      trustProxy: opts.trustProxy ?? false,
      refreshMinutes: 60,
      ...(opts.logRequests ? { logRequests: true } : {}),
    },
    clock: () => NOW,
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  opts.beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    store,
    holder,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

export async function call(base: string, path: string, init: RequestInit = {}): Promise<Got> {
  const res = await fetch(base + path, init);
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, text, body };
}

type Json = Record<string, unknown>;

/** Validates response bodies against the schemas of an OpenAPI document. */
export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  constructor(private readonly doc: Json) {
    addFormats.default(this.ajv);
  }

  /** Throws with the errors and the body when `body` does not match `method path status`. */
  check(method: string, template: string, status: number, body: unknown): void {
    const paths = this.doc.paths as Record<string, Record<string, Json>>;
    const op = paths[template]?.[method.toLowerCase()];
    if (!op) throw new Error(`no operation ${method} ${template} in openapi.json`);
    const responses = op.responses as Record<string, Json>;
    const response = responses[String(status)];
    if (!response) throw new Error(`${method} ${template} documents no ${status} response`);
    const schema = (response.content as Record<string, { schema: Json }> | undefined)?.['application/json']?.schema;
    if (!schema) throw new Error(`${method} ${template} ${status} has no JSON schema`);
    const validate = this.ajv.compile({ ...schema, components: this.doc.components });
    if (!validate(body)) {
      throw new Error(
        `${method} ${template} ${status} body does not match its schema: ${JSON.stringify(validate.errors, null, 1)}\n${JSON.stringify(body).slice(0, 2000)}`,
      );
    }
  }
}
