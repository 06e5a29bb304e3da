// One build script for everything we ship: the extension host bundle, the headless CLI,
// and the webview bundle. `--production` minifies; `--watch` rebuilds and prints the
// "[watch] build started/finished" lines the $esbuild-watch problem matcher reads; a one-shot
// build prints one line.
import * as esbuild from 'esbuild';
import { readdirSync, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * Reports builds to the terminal: esbuild's errors as they come, in the format of the
 * `$esbuild-watch` problem matcher, and in watch mode one "[watch] build started" /
 * "[watch] build finished" pair per wave of rebuilds (the matcher reads those lines), not one per
 * bundle. A one-shot build prints its single summary line from `buildOnce`.
 * @param {{ watch: boolean, log?: (line: string) => void, error?: (line: string) => void }} options
 * @returns {import('esbuild').Plugin}
 */
export function buildReporter({ watch, log = console.log, error = console.error }) {
  let running = 0;
  return {
    name: 'esbuild-problem-matcher',
    setup(build) {
      build.onStart(() => {
        if (running++ === 0 && watch) log('[watch] build started');
      });
      build.onEnd((result) => {
        for (const { text, location } of result.errors) {
          error(`✘ [ERROR] ${text}`);
          if (location) error(`    ${location.file}:${location.line}:${location.column}:`);
        }
        if (--running === 0 && watch) log('[watch] build finished');
      });
    },
  };
}

/**
 * zod re-exports all its ~50 message locales as one namespace (`z.locales`), which a bundler
 * cannot tree-shake: 264 KiB of the 1,043 KiB extension bundle. Hookwise uses only the default
 * English messages (zod installs them itself, from locales/en.js), so the namespace keeps only `en`.
 */
export const zodEnglishOnlyPlugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: path.join(path.dirname(args.importer), args.path), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

// Some dependencies are ESM that read `import.meta.url` (fdir via tinyglobby); in a
// CJS bundle that is undefined, so give them the bundle's own file URL.
// A getter, so a bundle whose users of it are never reached does not pay for the URL at start-up.
const importMetaShim = {
  // jsonc-parser's "main" is a UMD build with dynamic requires esbuild cannot follow; its
  // "module" build bundles cleanly.
  mainFields: ['module', 'main'],
  define: { 'import.meta.url': '__hookwiseImportMeta.url' },
  banner: { js: "const __hookwiseImportMeta = { get url() { return require('url').pathToFileURL(__filename).href; } };" },
};

/**
 * An esbuild filter that matches exactly one of `names` (import paths, taken literally).
 * @param {...string} names
 */
function exactly(...names) {
  return new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
}

/**
 * A part of the code that ships as its own file beside the bundle and is loaded only when used:
 * `import('<stub>')` in a file matching `importer` becomes a runtime require of the sibling
 * `file`, so the extension and CLI bundles do not grow. A real dynamic import() would fail in
 * the CLI, which runs its bundle through vm.Script (compile cache); a require does not.
 */
function sideBundlePlugin(name, stub, importer, file) {
  const stubFilter = exactly(stub);
  return {
    name,
    setup(build) {
      build.onResolve({ filter: stubFilter }, (args) => (importer.test(args.importer) ? { path: stub, namespace: name } : undefined));
      build.onResolve({ filter: /.*/, namespace: name }, () => ({ path: file, external: true }));
      build.onLoad({ filter: /.*/, namespace: name }, () => ({ contents: `module.exports = require(${JSON.stringify(file)});`, loader: 'js' }));
    },
  };
}

/**
 * The headless CLI's model client never uses Node's fetch, but the `openai` SDK and
 * nodeHttpFetch read the globals `Headers`, `Response`, `Request` and `FormData`, and the first
 * read of any of them loads all of Node's undici (a third of an empty CLI run). In those files
 * the names become the classes of src/model/liteFetchTypes.ts (own `Headers`/`Response`;
 * `instanceof` checks by tag; `new FormData`/`new Request` build the real ones). CLI bundle only.
 */
const LITE_FETCH_FILES = [
  { file: /[\\/]node_modules[\\/]openai[\\/]client\.m?js$/, names: ['FormData'] },
  { file: /[\\/]node_modules[\\/]openai[\\/]internal[\\/]headers\.m?js$/, names: ['Headers'] },
  { file: /[\\/]node_modules[\\/]openai[\\/]internal[\\/]utils[\\/]log\.m?js$/, names: ['Headers'] },
  { file: /[\\/]src[\\/]model[\\/]nodeHttpFetch\.ts$/, names: ['Headers', 'Response', 'Request'] },
];
const LITE_NAMES = { Headers: 'LiteHeaders', Response: 'LiteResponse', Request: 'LiteRequest', FormData: 'LiteFormData' };
export const liteFetchTypesPlugin = {
  name: 'lite-fetch-types',
  setup(build) {
    const lite = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'src/model/liteFetchTypes.ts');
    build.onLoad({ filter: /(openai[\\/].*\.m?js|nodeHttpFetch\.ts)$/ }, async (args) => {
      const entry = LITE_FETCH_FILES.find((e) => e.file.test(args.path));
      if (!entry) return undefined;
      const text = await readFile(args.path, 'utf8');
      // A file that declares one of the names itself would be shadowed wrongly: fail the build.
      for (const name of entry.names) {
        if (new RegExp(`(class|const|let|var|function|import[^;]*)\\s+${name}\\b`).test(text)) throw new Error(`${args.path} declares ${name}`);
      }
      const imports = entry.names.map((n) => `${LITE_NAMES[n]} as ${n}`).join(', ');
      return { contents: `import { ${imports} } from ${JSON.stringify(lite)};\n${text}`, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

/**
 * One namespace object per external module instead of one per importing file. esbuild wraps
 * each file's `import * as vscode from 'vscode'` in its own `__toESM(require('vscode'))`, which
 * defines a getter for every one of the API's few hundred names: 71 files did it at activation,
 * ~30 ms of a ~57 ms `activate()` in a profile. Here each module in `names` resolves to one
 * ES module that re-exports it (`export *` and the default), so the copy is made once.
 * Access stays a getter of the real module's property, as before.
 * @param {readonly string[]} names
 * @returns {import('esbuild').Plugin}
 */
export function sharedNamespacePlugin(names) {
  const filter = exactly(...names);
  return {
    name: 'shared-namespace',
    setup(build) {
      build.onResolve({ filter }, (args) =>
        args.namespace === 'shared-namespace' ? { path: args.path, external: true } : { path: args.path, namespace: 'shared-namespace' },
      );
      build.onLoad({ filter: /.*/, namespace: 'shared-namespace' }, (args) => {
        const name = JSON.stringify(args.path);
        return { contents: `export * from ${name};\nexport { default } from ${name};\n`, loader: 'js' };
      });
    },
  };
}

/**
 * A package used synchronously that ships as its own file beside the bundle, loaded on first use:
 * `require('<pkg>')` in a file matching `importer` stays a run-time require, of the sibling
 * `file`; the package is not bundled into the extension or CLI. Only the dist bundles use this
 * (a test bundle elsewhere would look for `file` beside itself), and `<pkg>`'s value imports
 * anywhere else would pull it back in (the build tests check it stays out).
 */
function syncSideBundlePlugin(name, pkg, importer, file) {
  const pkgFilter = exactly(pkg);
  return {
    name,
    setup(build) {
      build.onResolve({ filter: pkgFilter }, (args) =>
        args.kind === 'require-call' && importer.test(args.importer) ? { path: file, external: true } : undefined,
      );
    },
  };
}

/** yaml: dist/yaml.js, loaded by src/configFiles/yamlLib.ts on the first YAML document (agent, skill, command frontmatter). */
export const yamlSplitPlugin = syncSideBundlePlugin('yaml-split', 'yaml', /[\\/]configFiles[\\/]yamlLib\.ts$/, './yaml.js');

/** toml-eslint-parser: dist/toml.js, loaded by src/hooks/formats/tomlLocator.ts when a Codex config.toml diagnostic needs its line. */
export const tomlSplitPlugin = syncSideBundlePlugin('toml-split', 'toml-eslint-parser', /[\\/]formats[\\/]tomlLocator\.ts$/, './toml.js');

/**
 * openai: dist/openai.js beside extension.js, loaded by src/model/openAiSdk.ts when an
 * OpenAI-compatible model is set up (the Playground and VS Code's language models never load
 * it). Extension bundle only: the CLI always talks to an OpenAI-compatible model, and its code
 * cache covers the SDK inside cliMain.js.
 */
export const openAiSplitPlugin = syncSideBundlePlugin('openai-split', 'openai', /[\\/]model[\\/]openAiSdk\.ts$/, './openai.js');

/** The OpenTelemetry SDK and the span builder: dist/telemetry.js, loaded by src/telemetry/telemetryExport.ts when export is on. */
export const telemetrySplitPlugin = sideBundlePlugin('telemetry-split', './otelSdk', /[\\/]telemetry[\\/]telemetryExport\.ts$/, './telemetry.js');

/** The MCP SDK (client, transports, ajv): dist/mcp.js, loaded by src/mcp/loadMcpClient.ts once an MCP server is configured. */
export const mcpSplitPlugin = sideBundlePlugin('mcp-split', './mcpClient', /[\\/]mcp[\\/]loadMcpClient\.ts$/, './mcp.js');

/** execa: dist/execa.js, loaded by src/shared/execaLauncher.ts on the first Bash command or `!command`. */
export const execaSplitPlugin = sideBundlePlugin('execa-split', './execaStart', /[\\/]shared[\\/]execaLauncher\.ts$/, './execa.js');

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'silent',
  // The CLI runs its bundle and side bundles through vm.Script, where a real import() fails: an
  // import() (of a built-in loaded lazily, such as node:https, or a side bundle) becomes a require
  // in every bundle.
  supported: { 'dynamic-import': false },
  plugins: [zodEnglishOnlyPlugin, telemetrySplitPlugin, mcpSplitPlugin, execaSplitPlugin, yamlSplitPlugin, tomlSplitPlugin],
};

/** The extension host bundle's options (also used by bench/bundleSize.bench.mjs). */
export const extensionConfig = {
  ...common,
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  ...importMetaShim,
  plugins: [...common.plugins, openAiSplitPlugin, sharedNamespacePlugin(['vscode'])],
};

/**
 * The CLI is two files: dist/cli.js (the bin, a few lines) loads dist/cliMain.js through V8's
 * code cache (src/cli/compileCache.ts), so a run does not re-parse the 1 MB bundle.
 */
export const cliMainConfig = {
  ...common,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cliMain.js',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  plugins: [...common.plugins, liteFetchTypesPlugin],
  ...importMetaShim,
};

/** The MCP SDK's client, beside extension.js and cliMain.js (see mcpSplitPlugin). */
export const mcpClientConfig = {
  ...common,
  entryPoints: ['src/mcp/mcpClient.ts'],
  outfile: 'dist/mcp.js',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  ...importMetaShim,
};

/** yaml, beside extension.js and cliMain.js (see yamlSplitPlugin): the package's CommonJS build as is. */
export const yamlLibConfig = {
  ...common,
  stdin: { contents: "module.exports = require('yaml');", resolveDir: path.dirname(fileURLToPath(import.meta.url)), loader: 'js' },
  outfile: 'dist/yaml.js',
  format: 'cjs',
  platform: 'node',
  target: 'node20',
};

/** toml-eslint-parser, beside extension.js and cliMain.js (see tomlSplitPlugin). */
export const tomlLibConfig = {
  ...yamlLibConfig,
  stdin: { ...yamlLibConfig.stdin, contents: "module.exports = require('toml-eslint-parser');" },
  outfile: 'dist/toml.js',
};

/** openai, beside extension.js (see openAiSplitPlugin): the package's CommonJS build. */
export const openAiLibConfig = {
  ...yamlLibConfig,
  stdin: { ...yamlLibConfig.stdin, contents: "module.exports = require('openai');" },
  outfile: 'dist/openai.js',
};

/**
 * Every bundle `node esbuild.mjs` writes (dist/…, and the integration tests when there are any).
 * @type {import('esbuild').BuildOptions[]}
 */
export const configs = [
  extensionConfig,
  cliMainConfig,
  // The OpenTelemetry exporter, beside extension.js and cliMain.js (see telemetrySplitPlugin).
  {
    ...common,
    entryPoints: ['src/telemetry/otelSdk.ts'],
    outfile: 'dist/telemetry.js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    ...importMetaShim,
  },
  mcpClientConfig,
  yamlLibConfig,
  tomlLibConfig,
  openAiLibConfig,
  // execa, beside extension.js and cliMain.js (see execaSplitPlugin).
  {
    ...common,
    entryPoints: ['src/shared/execaStart.ts'],
    outfile: 'dist/execa.js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    ...importMetaShim,
  },
  {
    ...common,
    entryPoints: ['src/cli/bin.ts'],
    outfile: 'dist/cli.js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
];

if (existsSync('media/src/chat.ts') || existsSync('media/src/chat.js')) {
  const entry = existsSync('media/src/chat.ts') ? 'media/src/chat.ts' : 'media/src/chat.js';
  configs.push({ ...common, entryPoints: [entry], outfile: 'dist/media/chat.js', format: 'iife', platform: 'browser', target: 'es2022' });
}

/**
 * Integration tests run inside the real extension host, so they are built like the extension,
 * into out/test/integration. A test bundle there has no yaml.js or toml.js beside it: it
 * bundles those packages.
 * @param {string[]} entryPoints
 * @returns {import('esbuild').BuildOptions}
 */
export function integrationTestsConfig(entryPoints) {
  return {
    ...common,
    entryPoints,
    outdir: 'out/test/integration',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode', 'mocha'],
    ...importMetaShim,
    plugins: common.plugins.filter((p) => p !== yamlSplitPlugin && p !== tomlSplitPlugin),
  };
}

if (!production && existsSync('test/integration')) {
  const tests = readdirSync('test/integration')
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join('test/integration', f));
  if (tests.length > 0) configs.push(integrationTestsConfig(tests));
}

/**
 * Builds every config once, one after the other, and prints one line: how many bundles, where,
 * and how long it took (errors come before it). Resolves true when all built.
 * @param {import('esbuild').BuildOptions[]} all
 * @param {{ log?: (line: string) => void, error?: (line: string) => void }} [options]
 */
export async function buildOnce(all, { log = console.log, error = console.error } = {}) {
  const started = performance.now();
  const reporter = buildReporter({ watch: false, log, error });
  let failed = 0;
  for (const config of all) {
    const ctx = await esbuild.context({ ...config, plugins: [reporter, ...(config.plugins ?? [])] });
    try {
      await ctx.rebuild();
    } catch {
      failed++;
    } finally {
      await ctx.dispose();
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const what = `${all.length} bundle${all.length === 1 ? '' : 's'}${production ? ' (production)' : ''}`;
  if (failed > 0) error(`[build] failed: ${failed} of ${what} did not build (${seconds} s)`);
  else log(`[build] built ${what} in ${seconds} s`);
  return failed === 0;
}

async function main() {
  if (watch) {
    const reporter = buildReporter({ watch: true });
    const contexts = await Promise.all(configs.map((c) => esbuild.context({ ...c, plugins: [reporter, ...(c.plugins ?? [])] })));
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  if (!(await buildOnce(configs))) process.exit(1);
}

// Imported by the bundle benchmark for its options; built only when run.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
