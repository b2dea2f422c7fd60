/**
 * What the read-model rebuild after an hourly refresh costs (issue 18, item 5): `pmref start` rebuilds its read model
 * on the server's thread (and the body compressor's) after every run that publishes, then warms it (search documents,
 * search index) before the swap. `pmref ingest`'s run CPU does not include it.
 *
 * Builds a model from `<before>` (a store as the refresh found it) and warms it, as the served model; then builds
 * from `<after>` (a copy of that store after a refresh) `n` times in turns without and with the served model's
 * search-document normalization (`previousDocs`, what the holder passes), and prints the process CPU (every thread)
 * of each build and warm-up. Read-only: open copies, not a store a process is writing.
 *
 * Usage: node --import tsx bench/rebuild.ts <before.sqlite> <after.sqlite> [n=2]
 */
import { buildReadModel } from '../src/serve/read-model.ts';
import { openStore } from '../src/store/index.ts';

const [before, after, times = '2'] = process.argv.slice(2);
if (before === undefined || after === undefined) {
  console.error('usage: node --import tsx bench/rebuild.ts <before.sqlite> <after.sqlite> [n]');
  process.exit(2);
}
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const timed = async <T>(work: () => T | Promise<T>): Promise<[T, number]> => {
  const start = cpuMs();
  const out = await work();
  return [out, Math.round(cpuMs() - start)];
};
const options = { origin: 'http://pmref.bench', now: new Date() };

const first = await openStore(`sqlite:${before}`);
const served = await buildReadModel(first, options);
void served.catalog.search;
await first.close();

const store = await openStore(`sqlite:${after}`);
for (let i = 0; i < Number(times); i++) {
  for (const previous of [null, served.catalog.normalization()]) {
    const [model, build] = await timed(() => buildReadModel(store, { ...options, previousDocs: previous }));
    const [, docs] = await timed(() => model.catalog.docs);
    const [, index] = await timed(() => model.catalog.search);
    const reused = model.catalog.normalization()?.reused ?? 0;
    console.log(
      JSON.stringify({
        previous_docs: previous !== null,
        build_cpu_ms: build,
        docs_cpu_ms: docs,
        index_cpu_ms: index,
        total_cpu_ms: build + docs + index,
        documents: model.catalog.docs.events.length + model.catalog.docs.markets.length,
        reused,
      }),
    );
  }
}
await store.close();
process.exit(0);
