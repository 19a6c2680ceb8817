/**
 * The layers of docs/architecture.md, checked on every import (`npm run lint:boundaries`, run in CI).
 * A rule here is a rule of the house: change the architecture doc when you change one.
 */
const SUBGRAPH = '^subgraphs/(tenant|billing|analytics|notes)/';

module.exports = {
  forbidden: [
    {
      name: 'subgraph-to-subgraph',
      comment: 'A subgraph never imports another: data crosses by federation or a published read-only view.',
      severity: 'error',
      from: { path: '^subgraphs/([^/]+)/' },
      to: { path: SUBGRAPH, pathNot: ['^subgraphs/$1/'] },
    },
    {
      name: 'subgraph-upwards',
      comment: 'Subgraphs (and their shared kit) know nothing of the gateway, the REST bridge, benchmarks or tests.',
      severity: 'error',
      from: { path: '^subgraphs/' },
      to: { path: '^(gateway|rest-bridge|bench|test|console)/' },
    },
    {
      name: 'shared-kit-to-subgraph',
      comment: "subgraphs/common is the kit a subgraph's author uses; it names none of the subgraphs.",
      severity: 'error',
      from: { path: '^subgraphs/common/' },
      to: { path: SUBGRAPH },
    },
    {
      name: 'platform-below-subgraphs',
      comment: 'platform/ is the runtime the gateway and the subgraphs share: it stands under them and above schema/, and imports nothing but schema/ (and libraries).',
      severity: 'error',
      from: { path: '^platform/' },
      to: { path: '^(gateway|rest-bridge|subgraphs|bench|test|console)/' },
    },
    {
      name: 'gateway-through-faces',
      comment: "The gateway reaches the subgraphs only through their public faces, the registry and the settings readers' list, never through their kit.",
      severity: 'error',
      from: { path: '^gateway/' },
      to: { path: '^subgraphs/', pathNot: [`${SUBGRAPH}index\\.ts$`, '^subgraphs/(registry|settings)\\.ts$'] },
    },
    {
      name: 'subgraph-public-face',
      comment: "Outside a subgraph only its index.ts is visible: the gateway, the bridge and the schema build use a subgraph's public face, never its files (benchmarks may measure internals against their floors).",
      severity: 'error',
      from: { path: '^(gateway|rest-bridge|schema)/' },
      to: { path: `${SUBGRAPH}.+`, pathNot: [`${SUBGRAPH}index\\.ts$`] },
    },
    {
      name: 'bridge-stays-a-bridge',
      comment: 'The REST bridge translates HTTP to GraphQL and back: it imports the schema vocabulary, never the gateway, the platform runtime or a subgraph.',
      severity: 'error',
      from: { path: '^rest-bridge/' },
      to: { path: '^(gateway|platform|subgraphs)/' },
    },
    {
      name: 'schema-is-vocabulary',
      comment: 'schema/ is what every layer speaks; it depends on no layer above it.',
      severity: 'error',
      from: { path: '^schema/' },
      to: { path: '^(platform|gateway|rest-bridge|subgraphs|bench|test|console)/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes two files one; split what they share into a third.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
