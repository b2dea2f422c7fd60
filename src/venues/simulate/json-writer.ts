/**
 * Streams a JSON array or object to disk one element at a time (synchronous, buffered writes),
 * so the generator never holds a whole file as one string. Key order is the caller's insertion
 * order, which keeps output byte-identical for the same seed.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

const FLUSH_AT = 1 << 20;

export class JsonStreamWriter {
  private readonly fd: number;
  private buffer = '';
  private count = 0;
  private bytes = 0;

  constructor(
    readonly path: string,
    private readonly kind: 'array' | 'object',
  ) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
    this.buffer = kind === 'array' ? '[' : '{';
  }

  /** Appends one array element. */
  push(value: unknown): void {
    this.write(`${this.count === 0 ? '\n' : ',\n'}${JSON.stringify(value)}`);
    this.count++;
  }

  /** Appends one object member. */
  entry(key: string, value: unknown): void {
    this.write(`${this.count === 0 ? '\n' : ',\n'}${JSON.stringify(key)}:${JSON.stringify(value)}`);
    this.count++;
  }

  /** Appends one object member whose value is already serialized JSON (hot paths). */
  entryRaw(key: string, json: string): void {
    this.write(`${this.count === 0 ? '\n' : ',\n'}${JSON.stringify(key)}:${json}`);
    this.count++;
  }

  get size(): number {
    return this.count;
  }

  /** Closes the file; returns the number of bytes written. */
  close(): number {
    this.write(`${this.count === 0 ? '' : '\n'}${this.kind === 'array' ? ']' : '}'}\n`);
    this.flush();
    closeSync(this.fd);
    return this.bytes;
  }

  private write(s: string): void {
    this.buffer += s;
    if (this.buffer.length >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    this.bytes += writeSync(this.fd, this.buffer);
    this.buffer = '';
  }
}

/** Writes a small JSON value in one go (pretty-printed, trailing newline); returns its byte length. */
export function writeJsonFile(path: string, value: unknown): number {
  mkdirSync(dirname(path), { recursive: true });
  const text = `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(path, text);
  return Buffer.byteLength(text);
}
