/**
 * Raw HTTP/1.1 over a TCP socket, for requests `fetch` will not send (malformed request lines, CONNECT, odd
 * methods, oversized headers, a write side shut after the request) and for reading exactly what the server
 * wrote back.
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-case header names; a repeated header keeps its last value. */
  headers: Record<string, string>;
  /** The body as UTF-8 text (still compressed when `content-encoding` says so: see `bytes`). */
  body: string;
  bytes: Buffer;
}

export interface RawResult {
  /** Every complete response read, in order. */
  responses: RawResponse[];
  /** Whether the server closed (or reset) the connection. */
  closed: boolean;
  /** Whether the wait ran out before the expected responses arrived. */
  timedOut: boolean;
}

export interface RawOptions {
  /** Shut the write side once the request is written (`socket.end()`), leaving the read side open. */
  halfClose?: boolean;
  /** Resolve once this many complete responses have been read (default 1); else wait for the close. */
  responses?: number;
  /** Give up after this long (default 5 s): a server that never answers is a failure, not a hang. */
  timeoutMs?: number;
  /** Methods whose responses have no body (HEAD), in request order. */
  bodiless?: boolean[];
}

/** Parses as many complete responses as `data` holds. */
export function parseResponses(data: Buffer, bodiless: boolean[] = []): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    if (headEnd === -1) break;
    const head = data.subarray(at, headEnd).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '');
    if (!m) break;
    const status = Number(m[1]);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    let bodyStart = headEnd + 4;
    if (status === 100) {
      at = bodyStart;
      continue;
    }
    const noBody = bodiless[out.length] === true || status === 204 || status === 304;
    let body: Buffer = Buffer.alloc(0);
    if (!noBody && headers['content-type']?.startsWith('text/event-stream')) {
      // An event stream is open-ended: its answer is the head and what was read so far (chunk framing and all).
      body = data.subarray(bodyStart);
      out.push({ status, headers, body: body.toString('utf8'), bytes: body });
      break;
    }
    if (!noBody && headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const chunks: Buffer[] = [];
      let p = bodyStart;
      let complete = false;
      for (;;) {
        const lineEnd = data.indexOf('\r\n', p);
        if (lineEnd === -1) break;
        const size = Number.parseInt(data.subarray(p, lineEnd).toString('latin1'), 16);
        if (Number.isNaN(size)) break;
        if (size === 0) {
          const end = data.indexOf('\r\n\r\n', lineEnd);
          if (end === -1) break;
          p = end + 4;
          complete = true;
          break;
        }
        if (lineEnd + 2 + size + 2 > data.length) break;
        chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        p = lineEnd + 2 + size + 2;
      }
      if (!complete) break;
      body = Buffer.concat(chunks);
      bodyStart = p;
    } else if (!noBody && headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (bodyStart + length > data.length) break;
      body = data.subarray(bodyStart, bodyStart + length);
      bodyStart += length;
    } else if (!noBody) {
      break; // body runs to the close: not complete until then
    }
    out.push({ status, headers, body: body.toString('utf8'), bytes: body });
    at = bodyStart;
  }
  return out;
}

/** Writes `request` on a fresh connection and reads the responses. */
export function rawRequest(port: number, request: string | Buffer, opts: RawOptions = {}): Promise<RawResult> {
  const want = opts.responses ?? 1;
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean, timedOut: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const data = Buffer.concat(chunks);
      let responses = parseResponses(data, opts.bodiless);
      // A body that runs to the close (no length, not chunked) is complete once the server closed.
      if (closed && responses.length === 0 && data.length > 0) responses = parseToClose(data);
      resolve({ responses, closed, timedOut });
    };
    const timer = setTimeout(() => finish(false, true), opts.timeoutMs ?? 5000);
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      if (parseResponses(Buffer.concat(chunks), opts.bodiless).length >= want) finish(false, false);
    });
    socket.on('end', () => finish(true, false));
    socket.on('close', () => finish(true, false));
    socket.on('error', () => finish(true, false));
    socket.write(request);
    if (opts.halfClose) socket.end();
  });
}

function parseToClose(data: Buffer): RawResponse[] {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd === -1) return [];
  const withLength = Buffer.concat([
    data.subarray(0, headEnd),
    Buffer.from(`\r\ncontent-length: ${data.length - headEnd - 4}\r\n\r\n`),
    data.subarray(headEnd + 4),
  ]);
  return parseResponses(withLength);
}
