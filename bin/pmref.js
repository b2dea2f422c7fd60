#!/usr/bin/env node
// The `pmref` command. TypeScript sources, no build step: `npm ci && npm start` is all a fresh machine needs.
// compiled.mjs says how they are loaded (one module compiled per source change, or through tsx's loader).
import { importSources } from './compiled.mjs';

const { main } = await importSources('src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
