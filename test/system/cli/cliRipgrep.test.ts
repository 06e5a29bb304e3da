import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { runCliProcess } from '../../support/cliHarness';
import { findOnPath } from '../../../src/agent/tools/ripgrep';
import { useCliSuite } from '../../support/cliSuite';

// The CLI's Grep and Glob run on ripgrep: --rg-path, then $HOOKWISE_RG_PATH, then rg on PATH;
// with none usable, the JavaScript search answers and stderr says so once.

const suite = useCliSuite();

/** The tool results the model received, as one string. */
function toolResults(s: OpenAiTestServer): string {
  return JSON.stringify(s.requests.map((r) => (r.body.messages ?? []).filter((m: { role?: string }) => m.role === 'tool')));
}

async function run(s: OpenAiTestServer, env: Record<string, string>, ...extra: string[]): Promise<{ code: number | null; stderr: string }> {
  const args = ['-p', 'search', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', '4', ...extra];
  return runCliProcess(suite.cli, suite.w, args, env);
}

/** An empty directory to use as PATH, so no rg is found there. */
async function emptyPath(): Promise<string> {
  const dir = path.join(suite.w.base, 'empty-bin');
  await mkdir(dir, { recursive: true });
  return dir;
}

it('reads the pattern as ripgrep does (\\p{Greek}) with rg on PATH', async () => {
  const greek = await suite.w.write('notes/greek.txt', 'αβγ\n');
  await suite.w.write('notes/latin.txt', 'abc\n');
  const s = await suite.serve([toolCallsReply([{ name: 'Grep', arguments: { pattern: '\\p{Greek}+' } }]), textReply('done')]);
  const r = await run(s, {});
  expect(r.code).toBe(0);
  expect(toolResults(s)).toContain(greek);
  expect(toolResults(s)).not.toContain('latin.txt');
  expect(r.stderr).not.toContain('ripgrep');
});

it('--rg-path wins over an empty PATH', async () => {
  const rg = findOnPath('rg');
  expect(rg, 'rg must be installed (apt-get install ripgrep)').toBeDefined();
  const greek = await suite.w.write('greek.txt', 'αβγ\n');
  const s = await suite.serve([toolCallsReply([{ name: 'Grep', arguments: { pattern: '\\p{Greek}+' } }]), textReply('done')]);
  const r = await run(s, { PATH: await emptyPath() }, '--rg-path', rg as string);
  expect(r.code).toBe(0);
  expect(toolResults(s)).toContain(greek);
});

it('a broken HOOKWISE_RG_PATH and no rg on PATH: the JavaScript search answers, one diagnostic line on stderr', async () => {
  const fake = await suite.w.write('../fake-rg', '#!/bin/sh\nexit 7\n');
  await chmod(fake, 0o755);
  const hit = await suite.w.write('a.txt', 'needle\n');
  const s = await suite.serve([
    toolCallsReply([
      { name: 'Grep', arguments: { pattern: 'needle' } },
      { name: 'Glob', arguments: { pattern: '*.txt' } },
    ]),
    toolCallsReply([{ name: 'Grep', arguments: { pattern: 'needle', output_mode: 'content' } }]),
    textReply('done'),
  ]);
  const r = await run(s, { PATH: await emptyPath(), HOOKWISE_RG_PATH: fake });
  expect(r.code).toBe(0);
  expect(toolResults(s)).toContain(`${hit}:1:needle`);
  expect(r.stderr.match(/ripgrep is not usable/g)).toHaveLength(1);
  expect(r.stderr).toContain(fake);
});
