import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { OpenAiTestServer } from './openAiTestServer';
import { startOpenAiTestServer } from './openAiTestServer';
import type { CliRun, CliWorkspace } from './cliHarness';
import { buildCli, makeCliWorkspace, runCliProcess } from './cliHarness';

/** What a CLI test file shares: the CLI built once, a fresh workspace and at most one model server per test. */
export interface CliSuite {
  /** Path of the built CLI bundle. */
  readonly cli: string;
  /** This test's workspace (temp project, HOME and HOOKWISE_HOME). */
  readonly w: CliWorkspace;
  /** Starts this test's OpenAI-compatible server (closed after the test). */
  serve(
    script: Parameters<typeof startOpenAiTestServer>[0]['script'],
    options?: Omit<Parameters<typeof startOpenAiTestServer>[0], 'script'>,
  ): Promise<OpenAiTestServer>;
  /** `hookwise -p PROMPT --model test-model --base-url <server> --output-format json --max-steps N ...extra` in this test's workspace. */
  runPrompt(server: OpenAiTestServer, prompt: string, maxSteps: number, ...extra: string[]): Promise<CliRun>;
}

/**
 * Registers the vitest hooks of a CLI test file: build the CLI once (beforeAll), a fresh
 * workspace per test, and close the test's server and delete its files afterwards.
 */
export function useCliSuite(): CliSuite {
  let buildDir = '';
  let cli = '';
  let w: CliWorkspace | undefined;
  let server: OpenAiTestServer | undefined;
  beforeAll(async () => {
    buildDir = await mkdtemp(path.join(os.tmpdir(), 'hookwise-cli-build-'));
    cli = await buildCli(buildDir);
  });
  afterAll(async () => {
    await rm(buildDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    w = await makeCliWorkspace();
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await w?.cleanup();
  });
  return {
    get cli() {
      return cli;
    },
    get w() {
      if (!w) throw new Error('the workspace exists only inside a test');
      return w;
    },
    async serve(script, options = {}) {
      server = await startOpenAiTestServer({ script, ...options });
      return server;
    },
    runPrompt(s, prompt, maxSteps, ...extra) {
      const args = ['-p', prompt, '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', String(maxSteps), ...extra];
      return runCliProcess(cli, this.w, args);
    },
  };
}
