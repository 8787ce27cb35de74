/**
 * The import rules of src/, checked by `npm run lint` (dependency-cruiser):
 *
 * - no two folders import each other, directly or through others (`no-folder-cycles`);
 * - the folders are layers, and each imports only the layers before it in LAYERS: the
 *   pipeline reads top to bottom (config → plan → bind → run → artifact → report → the edges),
 *   with the leaves it uses (types, shared helpers, the judge client, evaluators, testsets)
 *   first. Type-only imports count too: a layer must not even name what a later one defines.
 *
 * src/index.ts (the library's entry) may import any layer.
 */
const LAYERS = [
  'types',
  'shared',
  'judge',
  'evaluators',
  'testsets',
  'config',
  'plan',
  'run',
  'targets',
  'bind',
  'artifact',
  'compare',
  'report',
  'github',
  'pipeline',
  'api',
  'cli',
  'action',
];

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ may import only ${LAYERS.slice(0, i).join(', ') || 'nothing outside itself'}`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(i + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Folders under src/ must not import each other in a circle.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'known-layer',
      comment: 'Every folder under src/ is one of the layers listed in .dependency-cruiser.cjs.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/[^/]+/', pathNot: `^src/(${LAYERS.join('|')})/` },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|lib|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6'],
  },
};
