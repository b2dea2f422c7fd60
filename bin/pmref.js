#!/usr/bin/env node
// The `pmref` command. TypeScript sources run through tsx's loader, so there is no build step:
// `npm ci && npm start` is all a fresh machine needs.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
