/**
 * Errors raised before a request reaches Fastify's router, answered in the one error shape (issue 15, item 4).
 * node's HTTP parser refuses a malformed request line, a bad header or headers over its 16 KB limit with a
 * `clientError`; a `CONNECT` request leaves the HTTP machinery altogether (`connect` event). Left to their
 * defaults, the first got Fastify's own bodies (`{"error":"Bad Request","message":"Client Error"}`) and the
 * second a silently dropped connection. Here both get a raw HTTP/1.1 response with the service's common
 * headers, an `X-Request-Id` and a `{error, code, hint?, request_id}` body, then the connection is closed: the
 * parser state of such a connection cannot be trusted for another request.
 *
 * node's parser is also lenient in ways Fastify's router is not: a request line without a version is taken as
 * HTTP/0.9, an RTSP request line (`DESCRIBE /x RTSP/1.0`) as HTTP/1.0, and either may carry a method that is
 * not an HTTP method (`PRI`, RTSP's `PLAY`, `SETUP`, ...). Handed to Fastify, such a method has no route, not
 * even the not-found one, so Fastify answered it from its last-resort fallback, which runs no hook (no common
 * headers, no `X-Request-Id`), sends a 404 error our error handler could only call "Invalid request", and logs
 * the whole route tree at warn level per request. `refuseNonHttp` answers them in front of Fastify instead.
 *
 * No body here (or anywhere) quotes the request back: a URL or header echoed into a JSON body is an XSS vector
 * for a careless client and a log-injection vector for every log that stores bodies.
 */
import { type IncomingMessage, METHODS, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ErrorCode, errorBody, statusOf } from './errors.ts';

/**
 * Longest request target (path and query) served, in characters. Every documented request, a venue market URL
 * passed as an id included, fits in a few hundred. 8 KB is nginx's default request-line limit
 * (`large_client_header_buffers 4 8k`), so a URL that passes a typical proxy in front of the service is served,
 * and a longer one is refused with 414 before any route sees it. A request line and headers over node's
 * 16 KB header limit get 431 from the parser before this check can run.
 */
export const MAX_URL_LENGTH = 8192;

/** Methods some route of the service answers: the `Allow` of a refusal that has no resource to look at. */
export const SERVED_METHODS = 'GET, HEAD, POST, OPTIONS';

export interface PreRoutingDeps {
  /** The app's request id generator (Fastify's `genReqId`), so raw answers carry ids of the same family. */
  nextRequestId: () => string;
  /** The headers on every response, as `[name, value]` pairs (app.ts). */
  commonHeaders: readonly (readonly [string, string])[];
  /** Where a refused connection is noted (debug: a client fault, not the operator's). */
  logDebug: (detail: Record<string, unknown>, message: string) => void;
}

/** An error of node's HTTP parser or server (`clientError`): `code` says which. */
type ConnectionError = Error & { code?: string };

/** The response node has on the socket, if any (the `_httpMessage` node itself checks before refusing). */
interface InFlight {
  writableEnded: boolean;
  /** Set by node once the response's headers say `Connection: close`: the connection ends after it. */
  _last?: boolean;
  once(event: 'finish', listener: () => void): unknown;
}
type ServerSocket = Duplex & { _httpMessage?: InFlight | null };

/** An error response in the one shape: its status, headers (common ones first) and JSON body. */
interface ErrorResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

function errorResponse(
  deps: Pick<PreRoutingDeps, 'commonHeaders'>,
  code: ErrorCode,
  message: string,
  requestId: string,
  hint?: string,
  headers: readonly (readonly [string, string])[] = [],
): ErrorResponse {
  const body = JSON.stringify(errorBody(code, message, requestId, hint), null, 2);
  return {
    status: statusOf(code),
    headers: [
      ...deps.commonHeaders.map(([name, value]): [string, string] => [name, value]),
      ...headers.map(([name, value]): [string, string] => [name, value]),
      ['x-request-id', requestId],
      ['content-type', 'application/json; charset=utf-8'],
      ['cache-control', 'no-store'],
      ['content-length', String(Buffer.byteLength(body))],
      ['connection', 'close'],
    ],
    body,
  };
}

/**
 * A complete HTTP/1.1 error response in the one shape, with `Connection: close`.
 *
 * @example rawErrorResponse(deps, 'uri_too_long', 'Request URL is too long', 'ab12cd34-1f')
 */
export function rawErrorResponse(
  deps: Pick<PreRoutingDeps, 'commonHeaders'>,
  code: ErrorCode,
  message: string,
  requestId: string,
  hint?: string,
  headers: readonly (readonly [string, string])[] = [],
): string {
  const response = errorResponse(deps, code, message, requestId, hint, headers);
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? 'Error'}`];
  for (const [name, value] of response.headers) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n${response.body}`;
}

interface Refusal {
  code: ErrorCode;
  message: string;
  hint: string;
}

/** The refusal of a request that is not HTTP/1.x: by the parser, or by `refuseNonHttp` after a lenient parse. */
const MALFORMED: Refusal = {
  code: 'invalid_request',
  message: 'Malformed HTTP request',
  hint: `Send an HTTP/1.1 request with a method among ${SERVED_METHODS} and a percent-encoded path.`,
};

/** The refusal for a parser or connection error: which code, and what to tell the client. */
function refusalOf(err: ConnectionError): Refusal {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'header_too_large',
        message: 'Request headers are too large',
        hint: `Keep the request line and headers under 16 KB in all, and the URL under ${MAX_URL_LENGTH} characters.`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        code: 'request_timeout',
        message: 'The request was not received in time',
        hint: 'Send the whole request at once; retry.',
      };
    default:
      return MALFORMED;
  }
}

/**
 * Writes `response` and closes the connection once it is flushed. On a kept-alive connection the response to
 * an earlier request may still be being written: the refusal follows it (written now, it would be read as
 * that earlier request's answer, or cut it in two). After a response that closes the connection, bytes the
 * client sent behind its request are not a request to answer (RFC 9112 §9.6: no further request on that
 * connection is processed): node closes it once that response is out, and no second response follows it.
 */
function refuse(socket: ServerSocket, response: string): void {
  // A client reset after the refusal must not become an uncaught 'error' (node removed its own listener when
  // it handed the socket over).
  if (socket.listenerCount('error') === 0) socket.on('error', () => socket.destroy());
  if (socket.destroyed || socket.writableEnded) return; // gone, or already refused
  const inFlight = socket._httpMessage;
  if (inFlight?._last === true) return;
  if (inFlight && !inFlight.writableEnded) {
    inFlight.once('finish', () => refuse(socket, response));
    return;
  }
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(response, () => socket.destroy());
}

/** The methods Fastify's router can route (its table is node's list): any other has no route, not even 404's. */
const ROUTABLE_METHODS: ReadonlySet<string> = new Set(METHODS);

/**
 * Wraps the server's request listener: a request that is not HTTP/1.0 or HTTP/1.1 (a line without a version,
 * read as HTTP/0.9; `HTTP/2.0` in text, which no HTTP/2 client sends) or whose method is not an HTTP method
 * (`PRI`, RTSP methods) is refused with the parser's own 400 and the connection closed, as the same method on
 * an HTTP/1.1 line is refused by the parser. Everything else goes to `listener` untouched. It sits in front of
 * the hot path, so no route, fast or not, answers a request the router could not have routed.
 */
export function refuseNonHttp(
  deps: PreRoutingDeps,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (req.httpVersionMajor === 1 && ROUTABLE_METHODS.has(req.method ?? '')) {
      listener(req, res);
      return;
    }
    const requestId = deps.nextRequestId();
    deps.logDebug({ http_version: req.httpVersion, request_id: requestId }, 'refused a request that is not HTTP/1.x');
    const response = errorResponse(deps, MALFORMED.code, MALFORMED.message, requestId, MALFORMED.hint);
    // Through `res`, not the socket: node has this response on its books and closes after it (`connection: close`).
    res.writeHead(response.status, response.headers.flat());
    res.end(response.body);
  };
}

/** The `clientErrorHandler` of the app: node's parser errors in the one error shape. */
export function clientErrorHandler(deps: PreRoutingDeps): (err: ConnectionError, socket: Duplex) => void {
  return (err, socket) => {
    // A reset is a client gone, not a request to answer (https://nodejs.org/api/http.html#event-clienterror).
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const refusal = refusalOf(err);
    const requestId = deps.nextRequestId();
    deps.logDebug({ code: err.code, request_id: requestId }, 'refused a malformed request');
    refuse(socket, rawErrorResponse(deps, refusal.code, refusal.message, requestId, refusal.hint));
  };
}

/**
 * Refuses `CONNECT` (a proxy tunnel: the service is no proxy) with 405 and closes. Without a `connect` listener
 * node drops the connection without a word, which a client cannot tell from a network fault.
 */
export function refuseConnect(deps: PreRoutingDeps): (req: IncomingMessage, socket: Duplex) => void {
  return (_req, socket) => {
    const requestId = deps.nextRequestId();
    refuse(
      socket,
      rawErrorResponse(
        deps,
        'method_not_allowed',
        'Method not allowed',
        requestId,
        'This service is not a proxy; it answers GET, HEAD, POST and OPTIONS.',
        [['allow', SERVED_METHODS]],
      ),
    );
  };
}

/**
 * Sets the server manners that decide whether a request gets an answer at all:
 * - half-open connections: a client may send its request and shut its write side (`shutdown(SHUT_WR)`, the
 *   allowHalfOpen pattern of netcat, some proxies and load-testing tools). node's server answers that by
 *   ending the socket as soon as it sees the client's FIN unless `httpAllowHalfOpen` is set, so a response
 *   written after any I/O wait was lost. That is why `/v1/status` and `/v1/marks` with `Accept-Encoding: gzip`
 *   got no answer: their compression runs on the thread pool (send.ts `sendJson`), and the FIN is read
 *   meanwhile; uncompressed they were answered only because the answer beat the FIN. With it set, node marks
 *   the in-flight response as the last one and ends the socket after writing it.
 * - `CONNECT` is refused (`refuseConnect`).
 * - `Expect:` values other than `100-continue` are ignored and the request answered as usual (RFC 9110
 *   §10.1.1 allows a 417 but does not require it; node's own 417 has an empty body).
 */
export function setServerManners(
  server: Server,
  deps: PreRoutingDeps,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  // `httpAllowHalfOpen`: a field http.Server sets in its constructor and reads on every socket end; node does
  // not document it and @types/node does not declare it.
  Object.assign(server, { httpAllowHalfOpen: true });
  server.on('connect', refuseConnect(deps));
  server.on('checkExpectation', listener);
}
