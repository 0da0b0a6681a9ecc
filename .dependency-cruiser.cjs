/**
 * The layer rules of src/ (src/README.md), checked by `npm run lint:imports`, which `npm test`
 * runs first. Type-only imports count: a cycle through types is still a cycle to read.
 */
const STAGES = '^src/(consolidate|retrieve|forget|reembed|session|undo|asof|transfer|episode|extract|inject)/';

/**
 * KNOWN EXCEPTION, to delete when the rd-lineage branch is merged (it removes this cycle):
 * store/database.ts → lineage-migration.ts → lineage.ts → database.ts. A cycle whose every
 * module is one of these three is reported as a warning; any other cycle, through them or not,
 * fails.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycles, type imports included (STYLE.md).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'stages-use-storage',
      comment: 'A stage takes a Storage (storage/) and shared modules: never the IndexedDB backend, an adapter, a verb or the composition root.',
      severity: 'error',
      from: { path: STAGES },
      to: { path: '^src/(store|adapters|verbs)/|^src/(memory|index)\\.ts$' },
    },
    {
      name: 'storage-knows-no-backend',
      comment: 'storage/ is what belongs to no backend: it imports no backend (store/, adapters/) and not the worker.',
      severity: 'error',
      from: { path: '^src/storage/' },
      to: { path: '^src/(store|adapters|worker)/' },
    },
    {
      name: 'options-know-no-backend',
      comment: "The options and durability/ (eviction policy, persistence, subscriptions) are the memory's own, for every backend: no store/ or adapters/, types included (store/eviction.ts is the IndexedDB backend's guard). The options may name the worker's mode.",
      severity: 'error',
      from: { path: '^src/durability/|^src/memory-options\\.ts$' },
      to: { path: '^src/(store|adapters)/' },
    },
    {
      name: 'worker-knows-no-adapter',
      comment: 'The worker runs compute for every adapter; it imports none of them.',
      severity: 'error',
      from: { path: '^src/worker/' },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'core-knows-no-adapter',
      comment: 'Adapters are subpath entries over the core; the core never imports one.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/adapters/' },
      to: { path: '^src/adapters/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.wat$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
