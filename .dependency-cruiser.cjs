// @ts-check
/**
 * The layer rule of the house (docs/architecture.md): folders under src/ form layers, and an
 * import may only point to the same layer or one below it. `npm run lint` runs this check.
 * Top to bottom; folders on one line are one layer and may not import each other.
 */
const LAYERS = [
  ['extension.ts'],
  ['vscode', 'cli'],
  ['presentation'],
  ['runtime'],
  ['settings'],
  ['mcp'],
  ['plugins'],
  ['telemetry'],
  ['agent'],
  ['hooks'],
  ['permissions'],
  ['model'],
  ['configFiles'],
  ['shared'],
];

const pathOf = (name) => (name.endsWith('.ts') ? `^src/${name.replace('.', '\\.')}$` : `^src/${name}/`);

/** @type {import('dependency-cruiser').IForbiddenRuleType[]} */
const layerRules = [];
LAYERS.forEach((layer, rank) => {
  for (const name of layer) {
    const above = LAYERS.slice(0, rank).flat();
    const peers = layer.filter((other) => other !== name);
    for (const target of [...above, ...peers]) {
      const targetRank = LAYERS.findIndex((l) => l.includes(target));
      layerRules.push({
        name: `layer: ${name} may not import ${target}`,
        comment:
          targetRank === rank
            ? `src/${name} and src/${target} are one layer and stay independent of each other.`
            : `src/${name} is below src/${target}: imports point down only (docs/architecture.md).`,
        severity: 'error',
        from: { path: pathOf(name) },
        to: { path: pathOf(target) },
      });
    }
  }
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular-folders',
      comment: 'A cycle between modules; the layers above are acyclic, keep each folder so too.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true, pathNot: '^vscode$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|out|node_modules)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
  },
};
