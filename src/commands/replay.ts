import { existsSync, statSync } from 'node:fs';
import { parseFaultSpec, startReplayServer } from '../venues/index.ts';
import { type Command, parseFlags, UsageError } from './types.ts';

/** `pmref replay`: serves recorded venue responses (and injected faults) until interrupted. */
export const replayCommand: Command = {
  name: 'replay',
  summary: 'serve a folder of recorded venue responses as the venues would, with optional faults',
  usage: `
Usage: pmref replay --dir DIR [--dir DIR2 …] [--port N] [--host HOST] [--faults SPEC]

Loads every JSON file under DIR (recursively), detects venue_a / venue_b / CLOB / spot shapes,
de-duplicates records (newest wins) and serves them under each venue's own paths and paging:
  venue_a  {url}/venue_a/trade-api/v2   (/events, /series/{t}, /markets, /markets/{t}, /markets/candlesticks)
  venue_b  {url}/venue_b/gamma          (/events, /markets)   and {url}/venue_b/clob (/book, /prices-history)
  spot     {url}/spot                   (/simple/price)
Prints the base URLs, then serves until killed (Ctrl-C).

Options:
  --dir DIR       folder of recorded responses (repeatable; required)
  --port N        port to listen on (default 0: a free port)
  --host HOST     interface (default 127.0.0.1)
  --faults SPEC   comma-separated faults, TARGET:MODE[:opt=N…]
                  TARGET venue_a | venue_b | gamma | clob | spot | all
                  MODE   5xx | 429 | timeout | slow | malformed | truncated | unknown-fields
                  opts   after=N (let N through first), count=N (times), retry-after=S, status=5xx, delay=MS
                  e.g.   venue_a:5xx:count=2,venue_b:429:retry-after=1
`,
  async run(args) {
    const { values } = parseFlags(args, {
      dir: { type: 'string', multiple: true },
      port: { type: 'string' },
      host: { type: 'string' },
      faults: { type: 'string' },
    });
    const dirs = values.dir ?? [];
    if (dirs.length === 0) throw new UsageError('--dir DIR is required');
    for (const d of dirs) {
      if (!existsSync(d) || !statSync(d).isDirectory()) throw new UsageError(`--dir ${d}: not a folder`);
    }
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be 0..65535, got '${values.port}'`);
    let faults: ReturnType<typeof parseFaultSpec> = [];
    try {
      faults = parseFaultSpec(values.faults ?? '');
    } catch (err) {
      throw new UsageError(`--faults: ${(err as Error).message}`);
    }
    const server = await startReplayServer({ dir: dirs, port, host: values.host ?? '127.0.0.1', faults });
    const d = server.data;
    process.stdout.write(
      [
        `replay serving ${dirs.join(', ')}`,
        `  venue_a  ${server.venueAUrl}   (${d.venueA.events.length} events, ${d.venueA.markets.size} markets, ${d.venueA.series.size} series)`,
        `  venue_b  ${server.venueBUrl}   (${d.venueB.events.length} events, ${d.venueB.markets.length} markets)`,
        `  clob     ${server.clobUrl}   (${d.venueB.books.size} books)`,
        `  spot     ${server.spotUrl}   (${d.spot.size} coins)`,
        faults.length > 0 ? `  faults   ${values.faults}` : '  faults   none',
        ...d.files.filter((f) => f.ignored).map((f) => `  ignored  ${f.file}: ${f.ignored}`),
        '',
      ].join('\n'),
    );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    process.stdout.write(`replay stopped after ${server.stats().requests} requests\n`);
    return 0;
  },
};
