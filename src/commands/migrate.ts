import { loadConfig } from '../config.ts';
import { openStore } from '../store/index.ts';
import { type Command, parseFlags } from './types.ts';

/** `pmref migrate`: applies pending store migrations to the database named by PMREF_DB_URL. */
export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'apply pending database migrations (PMREF_DB_URL)',
  usage: `
Usage: pmref migrate

Applies every pending forward-only migration to the store named by PMREF_DB_URL
(default sqlite:./data/pmref.sqlite) and prints the versions it applied. Safe to run again.
`,
  async run(args) {
    parseFlags(args, {});
    const config = loadConfig();
    const store = await openStore(config.PMREF_DB_URL);
    try {
      const applied = await store.migrate();
      process.stdout.write(
        applied.length === 0
          ? `store (${store.engine}) is up to date\n`
          : `applied ${applied.length} migration(s) to the ${store.engine} store: ${applied.join(', ')}\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
