#!/usr/bin/env node
// The `pmref` command. TypeScript sources, no build step: `npm ci && npm start` is all a fresh machine needs.
// compiled.mjs says how they are loaded (one module compiled per source change, or through tsx's loader).
import { importSources } from './compiled.mjs';
import { capMallocArenas } from './malloc-arenas.mjs';

// First, before anything else allocates on another thread: malloc-arenas.mjs says why.
capMallocArenas(process.env);

const args = process.argv.slice(2);
// A command that serves starts reading its read-model pack before the rest of pmref loads (src/serve/pack-file.ts).
if (args[0] === 'start' || args[0] === 'serve') {
  const { prefetchForCommand } = await importSources('src/serve/pack-file.ts');
  prefetchForCommand(args, process.env);
}
const { main } = await importSources('src/cli.ts');
process.exitCode = await main(args);
