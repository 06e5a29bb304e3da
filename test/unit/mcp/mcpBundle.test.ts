import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { analyseBuild } from '../../support/buildAnalysis';

const ROOT = path.resolve(__dirname, '../../..');

interface BuildScript {
  readonly extensionConfig: BuildOptions;
  readonly cliMainConfig: BuildOptions;
  readonly mcpClientConfig: BuildOptions;
}

/** Builds one of esbuild.mjs's bundles in memory, as shipped (minified), and returns what went into it. */
async function analyse(pick: (script: BuildScript) => BuildOptions): Promise<{ inputs: string[]; text: string }> {
  const script = (await import(pathToFileURL(path.join(ROOT, 'esbuild.mjs')).href)) as BuildScript;
  return analyseBuild(pick(script));
}

const fromSdk = (inputs: readonly string[]) => inputs.filter((f) => /node_modules\/(@modelcontextprotocol\/sdk|ajv)\//.test(f));

describe('the MCP SDK ships in its own bundle (dist/mcp.js)', () => {
  it.each([
    ['dist/extension.js', (s: BuildScript) => s.extensionConfig],
    ['dist/cliMain.js', (s: BuildScript) => s.cliMainConfig],
  ])('%s holds none of the SDK or ajv and requires ./mcp.js at run time', async (_name, pick) => {
    const { inputs, text } = await analyse(pick);
    expect(fromSdk(inputs)).toEqual([]);
    expect(text).toContain('require("./mcp.js")');
  });

  it('dist/mcp.js holds the SDK client, its transports and ajv', async () => {
    const { inputs } = await analyse((s) => s.mcpClientConfig);
    const sdk = fromSdk(inputs);
    expect(sdk.some((f) => f.includes('sdk/dist/cjs/client/index.js') || f.includes('sdk/dist/esm/client/index.js'))).toBe(true);
    expect(sdk.some((f) => f.includes('client/streamableHttp.js'))).toBe(true);
    expect(sdk.some((f) => /node_modules\/ajv\//.test(f))).toBe(true);
  });
});
