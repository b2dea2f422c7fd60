/**
 * The paths the service routes and the methods each answers, so that a request Fastify could not route is
 * told the truth: 405 with `Allow` when the path exists under another method (RFC 9110 §15.5.6), 404 when no
 * route has that path. Fastify routes by method first and sends both to one not-found handler, and offers no
 * lookup of a concrete URL across methods; this table is filled from its `onRoute` hook, so it cannot drift
 * from the routes.
 */

interface KnownPath {
  pattern: RegExp;
  methods: Set<string>;
}

/** A Fastify route URL (`/v1/events/:slug`, `/docs/*`) as an anchored pattern over a request path. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.+?^${}()|[\]\\*]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}

export class KnownPaths {
  private readonly paths = new Map<string, KnownPath>();

  /** Records a route. The catch-all `*` (OPTIONS on every path) is not a path and is left out. */
  add(url: string, methods: string | readonly string[]): void {
    if (url === '*') return;
    let known = this.paths.get(url);
    if (!known) {
      known = { pattern: patternOf(url), methods: new Set() };
      this.paths.set(url, known);
    }
    for (const m of typeof methods === 'string' ? [methods] : methods) {
      known.methods.add(m);
      if (m === 'GET') known.methods.add('HEAD'); // Fastify answers HEAD for every GET route
    }
  }

  /**
   * The `Allow` value for a path (query excluded) some route has, e.g. `GET, HEAD, OPTIONS`; null when no route
   * has it. OPTIONS is answered on every path (app.ts), so it is always allowed.
   *
   * @example paths.allowOf('/v1/keys') // 'POST, OPTIONS'
   */
  allowOf(path: string): string | null {
    const methods = new Set<string>();
    for (const known of this.paths.values()) {
      if (known.pattern.test(path)) for (const m of known.methods) methods.add(m);
    }
    if (methods.size === 0) return null;
    methods.delete('OPTIONS');
    const order = ['GET', 'HEAD', 'POST', 'DELETE'];
    const sorted = [...methods].sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));
    return [...sorted, 'OPTIONS'].join(', ');
  }
}

function rank(order: readonly string[], method: string): number {
  const i = order.indexOf(method);
  return i === -1 ? order.length : i;
}
