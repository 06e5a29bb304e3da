import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Folder of the hook scripts the CLI tests configure (plain node, Claude Code protocol). */
export const HOOKS_DIR = path.resolve(here, '../fixtures/cli/hooks');

/** A settings.json command that runs one of the fixture hook scripts with node. */
export function hookCommand(script: string, ...args: string[]): string {
  return [process.execPath, path.join(HOOKS_DIR, script), ...args].map((a) => JSON.stringify(a)).join(' ');
}

/**
 * Builds the CLI exactly as esbuild.mjs does — the bundle (src/cli/main.ts → cliMain.js) and
 * the launcher that loads it through the compile cache (src/cli/bin.ts → cli.js), and the
 * OpenTelemetry exporter it requires when export is on (src/telemetry/otelSdk.ts → telemetry.js) and the MCP
 * client it requires once an MCP server is configured (src/mcp/mcpClient.ts → mcp.js), and execa, required on the
 * first Bash command (src/shared/execaStart.ts → execa.js), and yaml and toml-eslint-parser (yaml.js, toml.js) — but into
 * `outDir`, so the tests run the code of this working tree, never a stale dist/. Returns the
 * launcher's path.
 */
export async function buildCli(outDir: string): Promise<string> {
  // No real import() anywhere, as shipped: the CLI runs these files through vm.Script (compileCache.ts).
  const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'silent', supported: { 'dynamic-import': false } } as const;
  const shim = {
    mainFields: ['module', 'main'],
    define: { 'import.meta.url': '__hookwiseImportMetaUrl' },
    banner: { js: "const __hookwiseImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
  };
  // As esbuild.mjs's sideBundlePlugin: the OpenTelemetry SDK (telemetry.js) and the MCP SDK (mcp.js) are sibling
  // files, required only when export is on / an MCP server is configured. A require, not a real dynamic
  // import(): that would fail in the CLI, which runs its bundle through vm.Script (compile cache).
  const sideBundle = (name: string, stub: string, importer: RegExp, file: string): esbuild.Plugin => ({
    name,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${stub.replace(/[./]/g, '\\$&')}$`) }, (args) =>
        importer.test(args.importer) ? { path: stub, namespace: name } : undefined,
      );
      build.onResolve({ filter: /.*/, namespace: name }, () => ({ path: file, external: true }));
      build.onLoad({ filter: /.*/, namespace: name }, () => ({ contents: `module.exports = require(${JSON.stringify(file)});`, loader: 'js' }));
    },
  });
  // As shipped: the SDK and nodeHttpFetch get the undici-free fetch classes (esbuild.mjs, liteFetchTypesPlugin);
  // yaml and toml-eslint-parser are sibling files yaml.js and toml.js, required on first use (yamlSplitPlugin, tomlSplitPlugin).
  const script = (await import(pathToFileURL(path.resolve(here, '../../esbuild.mjs')).href)) as {
    liteFetchTypesPlugin: esbuild.Plugin;
    yamlSplitPlugin: esbuild.Plugin;
    tomlSplitPlugin: esbuild.Plugin;
    yamlLibConfig: esbuild.BuildOptions;
    tomlLibConfig: esbuild.BuildOptions;
  };
  await esbuild.build({
    ...common,
    ...shim,
    entryPoints: [path.resolve(here, '../../src/cli/main.ts')],
    outfile: path.join(outDir, 'cliMain.js'),
    plugins: [
      sideBundle('telemetry-split', './otelSdk', /[\\/]telemetry[\\/]telemetryExport\.ts$/, './telemetry.js'),
      sideBundle('mcp-split', './mcpClient', /[\\/]mcp[\\/]loadMcpClient\.ts$/, './mcp.js'),
      sideBundle('execa-split', './execaStart', /[\\/]shared[\\/]execaLauncher\.ts$/, './execa.js'),
      script.yamlSplitPlugin,
      script.tomlSplitPlugin,
      script.liteFetchTypesPlugin,
    ],
  });
  for (const [lib, file] of [
    [script.yamlLibConfig, 'yaml.js'],
    [script.tomlLibConfig, 'toml.js'],
  ] as const) {
    await esbuild.build({ ...common, stdin: lib.stdin, outfile: path.join(outDir, file) });
  }
  await esbuild.build({ ...common, ...shim, entryPoints: [path.resolve(here, '../../src/telemetry/otelSdk.ts')], outfile: path.join(outDir, 'telemetry.js') });
  await esbuild.build({ ...common, ...shim, entryPoints: [path.resolve(here, '../../src/mcp/mcpClient.ts')], outfile: path.join(outDir, 'mcp.js') });
  await esbuild.build({ ...common, ...shim, entryPoints: [path.resolve(here, '../../src/shared/execaStart.ts')], outfile: path.join(outDir, 'execa.js') });
  const launcher = path.join(outDir, 'cli.js');
  await esbuild.build({ ...common, entryPoints: [path.resolve(here, '../../src/cli/bin.ts')], outfile: launcher, banner: { js: '#!/usr/bin/env node' } });
  return launcher;
}

/** A temp project (`ws`), a temp HOME and a temp HOOKWISE_HOME, so nothing of the user's leaks in. */
export interface CliWorkspace {
  readonly base: string;
  readonly ws: string;
  readonly home: string;
  readonly hookwiseHome: string;
  /** Writes `.claude/settings.json` of the project. */
  settings(value: unknown): Promise<void>;
  write(rel: string, content: string): Promise<string>;
  read(rel: string): string;
  exists(rel: string): boolean;
  /** JSON lines a recording hook appended to `rel`. */
  jsonLines(rel: string): Record<string, unknown>[];
  cleanup(): Promise<void>;
}

export async function makeCliWorkspace(): Promise<CliWorkspace> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-cli-')));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  const hookwiseHome = path.join(base, 'hookwise-home');
  await Promise.all([mkdir(path.join(ws, '.claude'), { recursive: true }), mkdir(home), mkdir(hookwiseHome)]);
  const abs = (rel: string): string => path.join(ws, rel);
  return {
    base,
    ws,
    home,
    hookwiseHome,
    settings: (value) => writeFile(path.join(ws, '.claude', 'settings.json'), JSON.stringify(value, null, 2)),
    async write(rel, content) {
      await mkdir(path.dirname(abs(rel)), { recursive: true });
      await writeFile(abs(rel), content);
      return abs(rel);
    },
    read: (rel) => readFileSync(abs(rel), 'utf8'),
    exists: (rel) => existsSync(abs(rel)),
    jsonLines: (rel) =>
      existsSync(abs(rel))
        ? readFileSync(abs(rel), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, unknown>)
        : [],
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** What one CLI process did. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How long a CLI run may take before the harness kills it (a hung CLI fails its test instead of hanging it). */
const DEFAULT_CLI_TIMEOUT_MS = 15_000;

/**
 * Runs `node <cli> ...args` in the workspace with HOME/HOOKWISE_HOME pointed at temp dirs; killed
 * after `timeoutMs`. `stdin` is piped to it and ended ('' by default: an empty pipe, so the CLI
 * does not wait for piped input); null leaves the pipe open.
 */
export function runCliProcess(
  cli: string,
  w: CliWorkspace,
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = DEFAULT_CLI_TIMEOUT_MS,
  stdin: string | null = '',
): Promise<CliRun> {
  return startCliProcess(cli, w, args, env, timeoutMs, stdin).done;
}

/** Like runCliProcess, with the child process at hand (to send it signals). */
export function startCliProcess(
  cli: string,
  w: CliWorkspace,
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = DEFAULT_CLI_TIMEOUT_MS,
  stdin: string | null = '',
): { child: ChildProcess; done: Promise<CliRun> } {
  let child: ChildProcess | undefined;
  const done = new Promise<CliRun>((resolve) => {
    child = execFile(
      process.execPath,
      [cli, ...args],
      {
        cwd: w.ws,
        timeout: timeoutMs,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: w.home,
          HOOKWISE_HOME: w.hookwiseHome,
          OPENAI_API_KEY: 'test-key',
          // The machine's own managed policy must not leak into tests; a test writes this file to have one.
          HOOKWISE_MANAGED_SETTINGS: path.join(w.base, 'managed-settings.json'),
          ...env,
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
  // A CLI that exits before reading all of it (it refuses an input over its bound) must not fail the test with EPIPE.
  child?.stdin?.on('error', () => undefined);
  if (stdin !== null) child?.stdin?.end(stdin);
  return { child: child as ChildProcess, done };
}

/** Resolves once `file` exists (a marker a command or hook writes), or rejects after `ms`. */
export async function waitForFile(file: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`${file} did not appear`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The `--output-format json` result object. */
export interface JsonResult {
  readonly result: string;
  readonly session_id: string;
  readonly num_turns: number;
  readonly is_error: boolean;
  readonly status: string;
  readonly reason?: string;
  readonly transcript_path: string;
  readonly hook_runs: readonly {
    readonly event: string;
    readonly hook: string;
    readonly status: string;
    readonly decision?: string;
    readonly reason?: string;
  }[];
}

export function parseJsonResult(run: CliRun): JsonResult {
  try {
    return JSON.parse(run.stdout) as JsonResult;
  } catch {
    throw new Error(`stdout is not one JSON object (exit ${run.code}).\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  }
}
