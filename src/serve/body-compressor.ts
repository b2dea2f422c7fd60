/**
 * Compresses a read-model build's bodies on a second thread (issue 18). Holding every body gzip (see
 * `GzipBody`) costs 4–6 s of CPU per full-universe build (483 MB of JSON at gzip level 2); on the server's
 * thread that made the build 15–30% longer, for work that needs nothing of the build's state. So the build
 * writes each body's bytes into a batch in memory shared with a worker thread and goes on serializing the next
 * ones while the thread compresses a batch into the same shared memory; the bodies land in the model's arena as
 * results come back. Measured on the full simulated universe (2-core machine, load about 3.5): build 27.7 s
 * with the thread, 31.1 s compressing on the server's thread, 28.2 s before bodies were held gzip.
 *
 * The batches live in a few fixed slots of one SharedArrayBuffer, allocated once per build: the first version
 * passed each batch and its result by message, and the copies (allocated and freed by two threads' allocators)
 * left the process 120–180 MB larger after the build.
 *
 * A build too small to fill one batch (every test seed) never starts the thread: its bodies are compressed on
 * the caller's thread when the build finishes. Whatever the thread cannot take (no free slot, a body larger
 * than a slot, a thread that failed to start or died) is compressed on the caller's thread, so a build never
 * fails for want of it; both ways give the same bytes (the same zlib, level and input). The thread ends itself
 * after a few idle seconds, so a build that fails midway (and never calls `finish`) leaves nothing running.
 */
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { Body, type BodyCache, type ByteArena, COMPRESS_MIN_BYTES, GzipBody, HELD_GZIP_LEVEL } from './json-bytes.ts';

/** How long the thread waits for a batch before it ends itself. */
const IDLE_EXIT_MS = 3000;

/**
 * What the thread runs (plain CommonJS: it needs no loader, so it starts in a few milliseconds). It reads a
 * batch from its slot's input region and writes the gzip of each body, one after another, into the slot's
 * output region; `ends` null says they did not fit (then the caller compresses the batch).
 */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
let shared = null;
const idle = () => setTimeout(() => process.exit(0), ${IDLE_EXIT_MS});
let timer = idle();
parentPort.on('message', (m) => {
  clearTimeout(timer);
  if (m.shared) {
    shared = Buffer.from(m.shared);
  } else {
    const { id, inAt, ends, outAt, outSize, level } = m;
    const outEnds = [];
    let start = 0;
    let at = 0;
    for (const end of ends) {
      const gz = gzipSync(shared.subarray(inAt + start, inAt + end), { level });
      if (at + gz.length > outSize) break;
      at += gz.copy(shared, outAt + at);
      outEnds.push(at);
      start = end;
    }
    parentPort.postMessage({ id, ends: outEnds.length === ends.length ? outEnds : null });
  }
  timer = idle();
});
`;

/** A body waiting in a batch: where its bytes end, and what to do with the body once it is held. */
interface Waiting {
  end: number;
  etag: string;
  done: (body: Body) => void;
}

interface Batch {
  /** Its slot of the shared memory, or null for a batch in its own buffer (compressed on the caller's thread). */
  slot: number | null;
  bytes: Buffer;
  used: number;
  waiting: Waiting[];
}

interface FromThread {
  id: number;
  ends: number[] | null;
}

export interface CompressorOptions {
  arena: ByteArena;
  cache: BodyCache;
  /** Bytes of identity JSON per batch (default 4 MB). */
  batchBytes?: number;
  /** Batches the thread may hold before `settle` waits for it (default 4); the slots are two more. */
  maxInFlight?: number;
  /** The thread's source instead of the compressing one (tests: a thread that fails). */
  threadSource?: string;
  /**
   * Told once per build when the compressing thread cannot start or fails and the bodies are compressed on the
   * build's own thread instead (same bytes, slower build). Default: a process warning on stderr.
   */
  onFallback?: (why: string) => void;
}

/** A stand-in for a body being compressed; `finish` replaces every one of them. */
export const PENDING_BODY = new Body('', '"pending"');

/**
 * Turns a build's body texts into held bodies (`heldBody`'s rule: gzip from `COMPRESS_MIN_BYTES` on, written
 * into the arena), compressing on a second thread. `hold` copies the bytes at once, so a reused scratch
 * buffer may be passed.
 * @example const bodies = new BodyCompressor({ arena, cache }); bodies.hold(text, etag, (b) => { entry.detail = b; }); await bodies.finish();
 */
export class BodyCompressor {
  private readonly batchBytes: number;
  private readonly outBytes: number;
  private readonly maxInFlight: number;
  private readonly slotCount: number;
  /** The slots, each an input region of `batchBytes` then an output region of `outBytes`; made on first use. */
  private shared: Buffer | null = null;
  private freeSlots: number[] = [];
  private batch: Batch | null = null;
  private thread: Worker | null = null;
  /** The thread failed: everything is compressed on this thread from then on. */
  private threadFailed = false;
  private readonly inFlight = new Map<number, Batch>();
  private nextId = 0;
  private wake: (() => void) | null = null;
  /** Threads started, and bodies compressed on a thread and on the caller's thread, so far. */
  readonly counts = { threads: 0, onThread: 0, here: 0 };

  constructor(private readonly opts: CompressorOptions) {
    this.batchBytes = opts.batchBytes ?? 4 << 20;
    // gzip's worst case is a few bytes per 16 KB block and 18 per body beyond the input; bodies are ≥ 1 KB.
    this.outBytes = Math.ceil(this.batchBytes * 1.05) + 1024;
    this.maxInFlight = opts.maxInFlight ?? 4;
    this.slotCount = this.maxInFlight + 2;
  }

  /** Holds `text` as a body with `etag`; `done` is called with it (at once for a small body, else later). */
  hold(text: string | Buffer, etag: string, done: (body: Body) => void): void {
    const length = typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : text.length;
    if (length < COMPRESS_MIN_BYTES) {
      done(new Body(this.opts.arena.put(text), etag, true));
      return;
    }
    let batch = this.batch;
    if (batch && batch.used + length > batch.bytes.length) {
      this.send(batch);
      batch = null;
    }
    if (!batch) {
      batch = this.newBatch(length);
      this.batch = batch;
    }
    if (typeof text === 'string') batch.bytes.write(text, batch.used, 'utf8');
    else text.copy(batch.bytes, batch.used);
    batch.used += length;
    batch.waiting.push({ end: batch.used, etag, done });
  }

  /** Waits while the thread holds more than `maxInFlight` batches (call it between a build's slices). */
  async settle(): Promise<void> {
    while (this.inFlight.size > this.maxInFlight) await this.nextResult();
  }

  /** Compresses what is left, waits for every body, and ends the thread. */
  async finish(): Promise<void> {
    const last = this.batch;
    this.batch = null;
    try {
      if (last && last.waiting.length > 0) {
        // Nothing sent yet: a small build, done here rather than paying for a thread.
        if (this.thread === null && this.inFlight.size === 0) this.compressHere(last);
        else this.send(last);
      }
      while (this.inFlight.size > 0) await this.nextResult();
    } finally {
      const thread = this.thread;
      this.thread = null;
      if (thread) void thread.terminate();
      this.shared = null;
    }
  }

  private newBatch(length: number): Batch {
    if (length <= this.batchBytes && !this.threadFailed) {
      if (!this.shared) {
        this.shared = Buffer.from(new SharedArrayBuffer(this.slotCount * (this.batchBytes + this.outBytes)));
        this.freeSlots = Array.from({ length: this.slotCount }, (_, i) => this.slotCount - 1 - i);
      }
      const slot = this.freeSlots.pop();
      if (slot !== undefined) {
        const at = slot * (this.batchBytes + this.outBytes);
        return { slot, bytes: this.shared.subarray(at, at + this.batchBytes), used: 0, waiting: [] };
      }
    }
    return { slot: null, bytes: Buffer.allocUnsafeSlow(Math.max(this.batchBytes, length)), used: 0, waiting: [] };
  }

  private send(batch: Batch): void {
    const thread = batch.slot === null || this.threadFailed ? null : (this.thread ?? this.startThread());
    if (!thread || batch.slot === null) {
      this.compressHere(batch);
      return;
    }
    const id = this.nextId++;
    this.inFlight.set(id, batch);
    const inAt = batch.slot * (this.batchBytes + this.outBytes);
    thread.postMessage({
      id,
      inAt,
      ends: batch.waiting.map((w) => w.end),
      outAt: inAt + this.batchBytes,
      outSize: this.outBytes,
      level: HELD_GZIP_LEVEL,
    });
  }

  private startThread(): Worker | null {
    if (!this.shared) return null;
    let thread: Worker;
    try {
      thread = new Worker(this.opts.threadSource ?? THREAD_SOURCE, { eval: true });
    } catch {
      this.fellBack('the compressing thread could not start'); // e.g. no threads allowed here
      return null;
    }
    thread.unref(); // a build abandoned midway must not keep the process alive
    thread.postMessage({ shared: this.shared.buffer });
    thread.on('message', (m: FromThread) => this.received(m));
    thread.on('error', (err) => {
      this.fellBack(`the compressing thread failed: ${err.message}`);
      this.ended(thread);
    });
    thread.on('exit', (code) => {
      // 0: it ended itself, idle. Anything else while still in use is a failure (`finish` forgets it first).
      if (code !== 0 && this.thread === thread) this.fellBack(`the compressing thread exited with code ${code}`);
      this.ended(thread);
    });
    this.thread = thread;
    this.counts.threads++;
    return thread;
  }

  /** From now on this build compresses on its own thread; says so once. */
  private fellBack(why: string): void {
    if (this.threadFailed) return;
    this.threadFailed = true;
    const message = `read-model build: ${why}; compressing bodies on the build's own thread (same bytes, slower build)`;
    if (this.opts.onFallback) this.opts.onFallback(message);
    else process.emitWarning(message, { code: 'PMREF_BODY_COMPRESSOR_FALLBACK' });
  }

  private received({ id, ends }: FromThread): void {
    const batch = this.inFlight.get(id);
    if (!batch) return;
    this.inFlight.delete(id);
    const shared = this.shared;
    if (ends === null || batch.slot === null || !shared) {
      this.compressHere(batch);
    } else {
      const outAt = batch.slot * (this.batchBytes + this.outBytes) + this.batchBytes;
      let start = 0;
      let plainStart = 0;
      batch.waiting.forEach((w, i) => {
        const end = ends[i] ?? start;
        this.deliver(w, shared.subarray(outAt + start, outAt + end), w.end - plainStart);
        start = end;
        plainStart = w.end;
      });
      this.counts.onThread += batch.waiting.length;
      this.release(batch);
    }
    this.wakeUp();
  }

  /**
   * The thread is gone (an error, its idle end, or `finish`): what it still held is compressed here (the inputs
   * are intact in their slots), and the next batch starts a new thread unless it failed.
   */
  private ended(thread: Worker): void {
    if (this.thread === thread) this.thread = null;
    for (const [id, batch] of this.inFlight) {
      this.inFlight.delete(id);
      this.compressHere(batch);
    }
    this.wakeUp();
  }

  private compressHere(batch: Batch): void {
    let start = 0;
    for (const w of batch.waiting) {
      const gz = gzipSync(batch.bytes.subarray(start, w.end), { level: HELD_GZIP_LEVEL });
      this.deliver(w, gz, w.end - start);
      start = w.end;
    }
    this.counts.here += batch.waiting.length;
    this.release(batch);
  }

  private release(batch: Batch): void {
    if (batch.slot !== null) this.freeSlots.push(batch.slot);
    batch.slot = null;
  }

  /** `gz` is copied into the arena (it may be a slot of the shared memory, reused by the next batch). */
  private deliver(w: Waiting, gz: Buffer, length: number): void {
    w.done(new GzipBody(this.opts.arena.put(gz), length, w.etag, this.opts.cache));
  }

  private nextResult(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
