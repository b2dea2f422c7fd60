// Entry of the pipeline worker thread: a worker thread does not inherit the main thread's TypeScript loader,
// so it registers tsx itself before loading the real entry (thread-entry.ts, named in workerData).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
