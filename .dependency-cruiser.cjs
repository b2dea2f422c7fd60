/** Encodes DESIGN.md §6: imports flow down; editorial/ is pure; domain/ imports nothing of ours. */
const room = (name) => `^src/${name}/`;
module.exports = {
  forbidden: [
    { name: 'domain-is-a-leaf', severity: 'error', from: { path: room('domain') }, to: { path: '^src/', pathNot: room('domain') } },
    {
      name: 'editorial-is-pure',
      severity: 'error',
      comment: 'editorial/ is pure functions: domain/, its checked-in data files (imported as JSON), chrono-node and zod; no I/O modules',
      from: { path: room('editorial') },
      to: { pathNot: `${room('editorial')}|${room('domain')}|^data/(registry|editorial)/[^/]+\\.json$|node_modules/(chrono-node|zod)/` },
    },
    {
      name: 'store-below-serve',
      severity: 'error',
      from: { path: room('store') },
      to: { path: '^src/', pathNot: `${room('store')}|${room('domain')}|^src/config\\.ts$` },
    },
    {
      name: 'serve-reads-store-only',
      severity: 'error',
      from: { path: room('serve') },
      to: { path: `${room('http')}|${room('agents')}|${room('site')}|${room('pipeline')}|${room('venues')}` },
    },
    {
      name: 'faces-do-not-touch-the-pipeline',
      severity: 'error',
      from: { path: `${room('http')}|${room('agents')}|${room('site')}` },
      to: { path: `${room('pipeline')}|${room('venues')}|${room('editorial')}` },
    },
    {
      name: 'pipeline-side-does-not-serve',
      severity: 'error',
      from: { path: `${room('pipeline')}|${room('venues')}|${room('editorial')}|${room('signals')}` },
      to: { path: `${room('http')}|${room('agents')}|${room('site')}|${room('serve')}` },
    },
    {
      name: 'metrics-is-a-side-room',
      severity: 'error',
      comment:
        'metrics/ (issue 19) wraps prom-client: it may read config and the types of what it measures (run summaries, the read model), never a face, the store or the pipeline itself',
      from: { path: room('metrics') },
      to: { path: '^src/', pathNot: `${room('metrics')}|^src/config\\.ts$|${room('pipeline')}|${room('serve')}` },
    },
    {
      name: 'metrics-sees-only-types-below',
      severity: 'error',
      comment: 'metrics/ may name pipeline/ and serve/ types, never run their code',
      from: { path: room('metrics') },
      to: { path: `${room('pipeline')}|${room('serve')}`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-faces-and-commands-meter',
      severity: 'error',
      comment:
        'a registry inside the pipeline (in `pmref start`, a worker thread) would never be scraped: runs reach the metrics as the summaries their worker delivers',
      from: { path: `${room('pipeline')}|${room('venues')}|${room('editorial')}|${room('signals')}|${room('store')}|${room('serve')}|${room('domain')}|${room('agents')}|${room('site')}` },
      to: { path: room('metrics') },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
