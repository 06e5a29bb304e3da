/**
 * Packages that ship in their own files beside the bundles, loaded on first use: yaml and
 * toml-eslint-parser (dist/yaml.js, dist/toml.js) beside the extension and the CLI, openai
 * (dist/openai.js) beside the extension only. The bundles hold none of them and require the
 * sibling file; the side files work on their own; an integration test bundle, which has no side
 * files beside it, carries them. Real esbuild with esbuild.mjs's options, in memory.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildOptions } from 'esbuild';
import type * as OpenAiPackage from 'openai';
import type * as TomlParser from 'toml-eslint-parser';
import type * as Yaml from 'yaml';
import { describe, expect, it } from 'vitest';
import { analyseBuild } from '../../support/buildAnalysis';

const ROOT = path.resolve(__dirname, '../../..');

interface BuildScript {
  readonly extensionConfig: BuildOptions;
  readonly cliMainConfig: BuildOptions;
  readonly yamlLibConfig: BuildOptions;
  readonly tomlLibConfig: BuildOptions;
  readonly openAiLibConfig: BuildOptions;
  readonly integrationTestsConfig: (entryPoints: string[]) => BuildOptions;
  readonly configs: readonly BuildOptions[];
}

const script = async (): Promise<BuildScript> => (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as BuildScript;

/** Runs a built CommonJS file and returns its exports, as Node's require would. */
function load(text: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', text)(module, module.exports, require);
  return module.exports;
}

const fromPackage = (inputs: readonly string[], pkg: string) => inputs.filter((f) => f.includes(`node_modules/${pkg}/`));

describe('yaml and toml-eslint-parser ship in their own bundles (dist/yaml.js, dist/toml.js)', () => {
  it.each([
    ['dist/extension.js', (s: BuildScript) => s.extensionConfig],
    ['dist/cliMain.js', (s: BuildScript) => s.cliMainConfig],
  ])('%s holds neither package and requires ./yaml.js and ./toml.js at run time', async (_name, pick) => {
    const { inputs, text } = await analyseBuild(pick(await script()));
    expect(fromPackage(inputs, 'yaml')).toEqual([]);
    expect(fromPackage(inputs, 'toml-eslint-parser')).toEqual([]);
    expect(text).toContain('require("./yaml.js")');
    expect(text).toContain('require("./toml.js")');
  });

  it('dist/yaml.js parses YAML on its own', async () => {
    const { inputs, text } = await analyseBuild((await script()).yamlLibConfig);
    expect(fromPackage(inputs, 'yaml').length).toBeGreaterThan(0);
    const yaml = load(text) as typeof Yaml;
    const doc = yaml.parseDocument('name: reviewer\ntools: [Read, Grep]\n');
    expect(doc.toJS()).toEqual({ name: 'reviewer', tools: ['Read', 'Grep'] });
    expect(yaml.isMap(doc.contents)).toBe(true);
  });

  it('dist/toml.js parses TOML with positions on its own', async () => {
    const { inputs, text } = await analyseBuild((await script()).tomlLibConfig);
    expect(fromPackage(inputs, 'toml-eslint-parser').length).toBeGreaterThan(0);
    const toml = load(text) as typeof TomlParser;
    const table = toml.parseTOML('a = 1\n[hooks]\nb = "x"\n').body[0].body[1];
    expect(table?.type === 'TOMLTable' ? table.resolvedKey : undefined).toEqual(['hooks']);
    expect(table?.range[0]).toBe(6);
  });

  it('an integration test bundle (out/test/integration, no side files beside it) carries yaml and the TOML parser itself', async () => {
    const s = await script();
    for (const [file, pkg] of [
      ['src/configFiles/boundedYaml.ts', 'yaml'],
      ['src/hooks/formats/tomlLocator.ts', 'toml-eslint-parser'],
    ] as const) {
      const { inputs, text } = await analyseBuild({ ...s.integrationTestsConfig([path.join(ROOT, file)]), outdir: undefined, outfile: 'out/check.js' });
      expect(fromPackage(inputs, pkg).length).toBeGreaterThan(0);
      expect(text).not.toMatch(/require\("\.\/(yaml|toml)\.js"\)/);
    }
  });
});

describe('openai ships beside the extension (dist/openai.js), loaded when an OpenAI-compatible model is set up', () => {
  it('dist/extension.js holds no openai and requires ./openai.js; dist/cliMain.js keeps it inside (its code cache covers it)', async () => {
    const s = await script();
    const extension = await analyseBuild(s.extensionConfig);
    expect(fromPackage(extension.inputs, 'openai')).toEqual([]);
    expect(extension.text).toContain('require("./openai.js")');
    const cli = await analyseBuild(s.cliMainConfig);
    expect(fromPackage(cli.inputs, 'openai').length).toBeGreaterThan(0);
    expect(cli.text).not.toContain('require("./openai.js")');
  });

  it('dist/openai.js gives the client and the error classes the model adapter uses', async () => {
    const { inputs, text } = await analyseBuild((await script()).openAiLibConfig);
    expect(fromPackage(inputs, 'openai').length).toBeGreaterThan(0);
    const sdk = load(text) as typeof OpenAiPackage;
    const client = new sdk.OpenAI({ apiKey: 'x', baseURL: 'http://127.0.0.1:9/v1' });
    expect(client.baseURL).toBe('http://127.0.0.1:9/v1');
    for (const name of ['APIError', 'APIConnectionError', 'APIConnectionTimeoutError', 'APIUserAbortError'] as const) expect(typeof sdk[name]).toBe('function');
  });

  it('an integration test bundle carries openai itself', async () => {
    const s = await script();
    const { inputs, text } = await analyseBuild({
      ...s.integrationTestsConfig([path.join(ROOT, 'src/model/openAiModelClient.ts')]),
      outdir: undefined,
      outfile: 'out/check.js',
    });
    expect(fromPackage(inputs, 'openai').length).toBeGreaterThan(0);
    expect(text).not.toContain('require("./openai.js")');
  });
});

describe('the CLI loads its bundle and side bundles through vm.Script (src/cli/compileCache.ts)', () => {
  // Code compiled by vm.Script has no loader for a real import(): once V8's cached data is used it
  // fails even with one named (Node 20). The build turns every import() into a require.
  it('no file beside dist/cli.js keeps a real import(), and cliMain.js requires its side bundles by sibling name', async () => {
    const s = await script();
    const cliFiles = s.configs.filter((c) => /^dist\/(cliMain|execa|mcp|telemetry|yaml|toml)\.js$/.test(c.outfile ?? ''));
    expect(cliFiles.map((c) => c.outfile).sort()).toEqual([
      'dist/cliMain.js',
      'dist/execa.js',
      'dist/mcp.js',
      'dist/telemetry.js',
      'dist/toml.js',
      'dist/yaml.js',
    ]);
    for (const c of cliFiles)
      expect({ file: c.outfile, dynamicImports: (await analyseBuild(c)).dynamicImports }).toEqual({ file: c.outfile, dynamicImports: [] });
    const main = await analyseBuild(s.cliMainConfig);
    for (const side of ['execa', 'mcp', 'telemetry', 'yaml', 'toml']) expect(main.text).toContain(`require("./${side}.js")`);
  });
});
