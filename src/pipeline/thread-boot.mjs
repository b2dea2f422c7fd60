// Entry of pmref's worker threads (the pipeline thread, thread.ts; the price-history thread, simulated.ts): a worker
// thread does not inherit the main thread's module loading, so it loads the real entry (thread-entry.ts or
// history-thread.ts, named in workerData) as bin/pmref.js loads the command: its compiled module, or through tsx
// (bin/compiled.mjs).
import { workerData } from 'node:worker_threads';
import { importSourceUrl } from '../../bin/compiled.mjs';

await importSourceUrl(workerData.entry);
