/**
 * The extension bundle copies the `vscode` module's namespace once, not once per importing file
 * (esbuild.mjs, sharedNamespacePlugin): each copy defines a getter for every name of the API, and
 * 71 of them cost ~30 ms of activation in a profile. Real esbuild, in memory.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { BuildOptions, Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { analyseBuild, REPO_ROOT } from '../../support/buildAnalysis';

interface BuildScript {
  readonly extensionConfig: BuildOptions;
  readonly sharedNamespacePlugin: (names: readonly string[]) => Plugin;
}

const script = async (): Promise<BuildScript> => (await import(pathToFileURL(path.join(REPO_ROOT, 'esbuild.mjs')).href)) as BuildScript;

/** Four files that import `vscode`, as a namespace and by name. */
const FILES: Record<string, string> = {
  'a.ts': `import * as vscode from 'vscode';\nexport const title = (): string => vscode.window.title;`,
  'c.ts': `import * as vscode from 'vscode';\nexport const version = (): string => vscode.version;`,
  'd.ts': `import { workspace } from 'vscode';\nexport const hasWorkspace = (): boolean => workspace !== undefined;`,
  'b.ts': `import { window } from 'vscode';\nimport * as vscode from 'vscode';\nimport { title } from './a';\nimport { version } from './c';\nimport { hasWorkspace } from './d';\nexport const read = () => [title(), window.title, version(), hasWorkspace(), Object.keys(vscode).length];`,
};

async function bundle(plugins: Plugin[]): Promise<string> {
  const files: Plugin = {
    name: 'files',
    setup(build) {
      build.onResolve({ filter: /^\.\/[a-d]$|^entry$/ }, (args) => ({ path: args.path === 'entry' ? 'b.ts' : `${args.path.slice(2)}.ts`, namespace: 'files' }));
      build.onLoad({ filter: /.*/, namespace: 'files' }, (args) => ({ contents: FILES[args.path], loader: 'ts' }));
    },
  };
  const result = await esbuild.build({
    entryPoints: ['entry'],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    external: ['vscode'],
    plugins: [files, ...plugins],
  });
  return result.outputFiles[0]?.text ?? '';
}

/** Runs `text` with a `vscode` whose names are counted each time a copy of the namespace lists them. */
function run(text: string): { read: () => unknown[]; listings: () => number; api: { window: { title: string }; version: string } } {
  let listings = 0;
  const api = { window: { title: 'one' }, version: '1.139.1', workspace: {}, commands: {} };
  const counted = new Proxy(api, {
    ownKeys(target) {
      listings++;
      return Reflect.ownKeys(target);
    },
  });
  const module = { exports: {} as { read: () => unknown[] } };
  new Function('module', 'exports', 'require', text)(module, module.exports, (id: string) => {
    if (id !== 'vscode') throw new Error(`unexpected require of ${id}`);
    return counted;
  });
  return { read: module.exports.read, listings: () => listings, api };
}

describe('one copy of the vscode namespace in the extension bundle', () => {
  it('without the plugin every importing file copies it; with it, one copy, and reads stay live', async () => {
    const { sharedNamespacePlugin } = await script();
    const perFile = run(await bundle([]));
    expect(perFile.listings()).toBeGreaterThanOrEqual(3);
    const shared = run(await bundle([sharedNamespacePlugin(['vscode'])]));
    const listed = shared.listings();
    expect(listed).toBeLessThanOrEqual(2); // `export *` once and the default once, not per file
    // What the code sees is what it saw with a copy per file (the names, `default` among them).
    expect(shared.read()).toEqual(perFile.read());
    expect(shared.read()).toEqual(['one', 'one', '1.139.1', true, 5]);
    shared.api.window.title = 'two';
    shared.api.window = { title: 'three' };
    expect(shared.read().slice(0, 2)).toEqual(['three', 'three']);
    expect(shared.listings()).toBe(listed);
  });

  it('dist/extension.js requires vscode in one place', async () => {
    const { text } = await analyseBuild((await script()).extensionConfig);
    expect(text.match(/require\("vscode"\)/g)?.length ?? 0).toBeLessThanOrEqual(2);
    expect(text).toContain('require("vscode")');
  });
});
