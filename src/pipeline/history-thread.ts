/**
 * Entry of the short-lived thread that writes a simulated universe's deferred price history (simulated.ts
 * `ensureHistory`). Generating it rebuilds the whole universe in memory (about 265 MB alive on the full universe,
 * 450 MB of heap with its garbage) for a few seconds. In the pipeline thread, with its large young generation
 * (thread.ts PIPELINE_YOUNG_GENERATION_MB) and beside the first start's served model, that was a peak of 1.7 GB
 * RSS; a thread of its own with V8's default heap sizes holds less, and gives all of it back when it ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { generateHistory } from '../venues/simulate/index.ts';

const { simDir } = workerData as { simDir: string };
generateHistory(simDir);
parentPort?.postMessage({ type: 'written' });
