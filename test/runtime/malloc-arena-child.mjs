// Child of malloc-arenas.test.ts: counts glibc's malloc arenas (malloc_info's <heap> elements) before and after six
// threads allocate, once bin/malloc-arenas.mjs has applied PMREF_MALLOC_ARENA_MAX. Plain JavaScript run by node
// itself, so the process starts with the few arenas a bare Node.js has. Prints one JSON line.
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { capMallocArenas } from '../../bin/malloc-arenas.mjs';

const cap = capMallocArenas(process.env);
const libc = createRequire(import.meta.url)('koffi').load('libc.so.6');
const fopen = libc.func('void *fopen(const char *path, const char *mode)');
const fclose = libc.func('int fclose(void *fp)');
const mallocInfo = libc.func('int malloc_info(int options, void *fp)');
function arenas() {
  const path = join(tmpdir(), `pmref-arenas-${process.pid}.xml`);
  const fp = fopen(path, 'w');
  mallocInfo(0, fp);
  fclose(fp);
  const xml = readFileSync(path, 'utf8');
  rmSync(path);
  return (xml.match(/<heap nr=/g) ?? []).length;
}
const before = arenas();
const source = `const { parentPort } = require('node:worker_threads');
const keep = [];
for (let i = 0; i < 2000; i++) keep.push(Buffer.allocUnsafeSlow(200));
parentPort.postMessage(keep.length);
setTimeout(() => {}, 200);`;
const threads = Array.from({ length: 6 }, () => new Worker(source, { eval: true }));
await Promise.all(threads.map((t) => new Promise((resolve) => t.once('message', resolve))));
const after = arenas();
await Promise.all(threads.map((t) => t.terminate()));
process.stdout.write(`${JSON.stringify({ cap, before, after })}\n`);
