import { handlerBody } from '../../src/hooks/config/hookConfigSchema';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAgentDefinitions } from '../../src/agent/subagents/agentDefinitions';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { loadHookConfig, type HookConfig } from '../../src/hooks/config/hookConfigLoader';
import { textReply } from '../support/openAiTestServer';
import { runCliProcess } from '../support/cliHarness';
import { useCliSuite } from '../support/cliSuite';
import { configCorpus, type ConfigCase } from './support/configCorpus';

/**
 * One malformed config file must never stop the others from loading. Every
 * corpus case is loaded next to a good user settings file, a good user agent and a good
 * sibling project file; the case must become a diagnostic naming its file (no throw, no hang)
 * and every good source must still contribute its hooks.
 */

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) {
    chmodRecursiveWritable(root);
    rmSync(root, { recursive: true, force: true });
  }
});

function chmodRecursiveWritable(dir: string): void {
  for (const rel of ['ws/.claude/settings.json', 'ws/.claude/settings.local.json']) {
    const file = path.join(dir, rel);
    try {
      if (lstatSync(file).isFile()) chmodSync(file, 0o600);
    } catch {
      // absent
    }
  }
}

const USER_SETTINGS = {
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo user-policy' }] }] },
  permissions: { deny: ['Bash(rm:*)'] },
};
const USER_AGENT = '---\nname: good\nhooks:\n  PreToolUse: [{matcher: Read, hooks: [{type: command, command: echo user-agent}]}]\n---\nGood agent.\n';
const sibling = (rel: string): string | undefined =>
  rel === '.claude/settings.json' ? '.claude/settings.local.json' : rel === '.claude/settings.local.json' ? '.claude/settings.json' : undefined;

function workspaceFor(c: ConfigCase): { ws: string; home: string; abs: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hw-malformed-'));
  roots.push(root);
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(path.join(ws, '.claude', 'agents'), { recursive: true });
  mkdirSync(path.join(home, '.claude', 'agents'), { recursive: true });
  writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify(USER_SETTINGS));
  writeFileSync(path.join(home, '.claude', 'agents', 'good.md'), USER_AGENT);
  const other = sibling(c.rel);
  if (other) writeFileSync(path.join(ws, other), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo project-sibling' }] }] } }));
  const abs = path.join(ws, c.rel);
  if (c.rel === '.claude/agents') rmSync(abs, { recursive: true });
  c.write(abs);
  return { ws, home, abs };
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms (hang)`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const commands = (config: HookConfig): string[] => config.hooks.map((h) => handlerBody(h.handler));

/** The problems with one case's outcome; [] = safe. */
async function check(c: ConfigCase): Promise<string[]> {
  const { ws, home, abs } = workspaceFor(c);
  const problems: string[] = [];
  let config: HookConfig;
  try {
    config = await withDeadline(
      loadHookConfig(standardConfigSources({ homeDir: home, folders: [{ root: ws }] }), { projectDirs: [ws] }),
      10_000,
      'loadHookConfig',
    );
  } catch (error) {
    return [`loadHookConfig threw: ${String(error)}`];
  }
  const cmds = commands(config);
  for (const good of ['echo user-policy', 'echo user-agent']) if (!cmds.includes(good)) problems.push(`the good source's hook "${good}" is missing`);
  if (sibling(c.rel) && !cmds.includes('echo project-sibling')) problems.push('the sibling project file did not load');
  if (!config.permissions.rules.some((r) => r.behavior === 'deny')) problems.push("the user's deny rule is missing");
  const named = config.diagnostics.filter((d) => d.file === abs || d.displayFile === c.rel || d.displayFile.startsWith(`${c.rel}/`));
  if (c.expect === 'diagnostic' && !named.some((d) => d.severity === 'error'))
    problems.push(`no error diagnostic names ${c.rel} (got: ${config.diagnostics.map((d) => `${d.displayFile} ${d.code}`).join(', ') || 'none'})`);
  if (c.expect === 'loads') {
    if (named.some((d) => d.severity === 'error')) problems.push(`unexpected error: ${named.map((d) => d.message).join('; ')}`);
    if (!cmds.includes('echo project-ok')) problems.push("the case's own valid hook did not load");
  }
  if (c.rel.startsWith('.claude/agents')) {
    try {
      const { agents } = await withDeadline(
        loadAgentDefinitions([
          { dir: path.join(home, '.claude', 'agents'), displayDir: '~/.claude/agents' },
          { dir: path.join(ws, '.claude', 'agents'), displayDir: '.claude/agents' },
        ]),
        10_000,
        'loadAgentDefinitions',
      );
      if (!agents.some((a) => a.name === 'good')) problems.push('the good user agent definition is missing');
    } catch (error) {
      problems.push(`loadAgentDefinitions threw: ${String(error)}`);
    }
  }
  return problems;
}

describe('adversarial: malformed config files (docs/security.md)', () => {
  it('every malformed source becomes a diagnostic and every good source still loads', async () => {
    const corpus = configCorpus();
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    const failures: string[] = [];
    let slowest = 0;
    for (const c of corpus) {
      const started = performance.now();
      const problems = await check(c);
      slowest = Math.max(slowest, performance.now() - started);
      for (const p of problems) failures.push(`${c.name} (${c.rel}): ${p}`);
    }
    // All at once: every project file broken together, the user's sources still load.
    const together = await checkAllTogether(corpus);
    failures.push(...together.map((p) => `all together: ${p}`));
    const largest = Math.max(...corpus.map((c) => c.bytes));
    console.log(
      `[adversarial] malformedConfig: ${corpus.length + 1} cases, ${failures.length} failures, largest file ${(largest / 1e6).toFixed(0)} MB, slowest load ${slowest.toFixed(0)} ms`,
    );
    expect(failures).toEqual([]);
  }, 120_000);
});

async function checkAllTogether(corpus: readonly ConfigCase[]): Promise<string[]> {
  const pick = (name: string): ConfigCase => corpus.find((c) => c.name === name)!;
  const settings = pick('deep arrays 200000');
  const { ws, home } = workspaceFor(settings);
  rmSync(path.join(ws, '.claude', 'settings.local.json'), { force: true });
  pick('a FIFO (must not hang)').write(path.join(ws, '.claude', 'settings.local.json'));
  pick('YAML alias bomb').write(path.join(ws, '.claude', 'agents', 'bad.md'));
  try {
    const config = await withDeadline(loadHookConfig(standardConfigSources({ homeDir: home, folders: [{ root: ws }] })), 10_000, 'loadHookConfig');
    const cmds = commands(config);
    const files = new Set(config.diagnostics.filter((d) => d.severity === 'error').map((d) => d.displayFile));
    return [
      ...(['echo user-policy', 'echo user-agent'].every((c) => cmds.includes(c)) ? [] : ['a good user hook is missing']),
      ...['.claude/settings.json', '.claude/settings.local.json', '.claude/agents/bad.md'].filter((f) => !files.has(f)).map((f) => `no diagnostic for ${f}`),
    ];
  } catch (error) {
    return [`threw: ${String(error)}`];
  }
}

describe('adversarial: the CLI with a malformed project config (docs/security.md)', () => {
  const suite = useCliSuite();

  it('reports the file and still runs the user policy hook, never "internal error"', async () => {
    const w = suite.w;
    await w.write('.claude/settings.json', `{"hooks": ${'['.repeat(50_000)}`);
    await w.write(
      '.claude/agents/bomb.md',
      '---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n',
    );
    mkdirSync(path.join(w.home, '.claude'), { recursive: true });
    writeFileSync(
      path.join(w.home, '.claude', 'settings.json'),
      JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/user-hook-ran"' }] }] } }),
    );
    const s = await suite.serve([textReply('done')]);
    const out = await runCliProcess(suite.cli, w, ['-p', 'hi', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json']);
    expect(out.stderr).not.toMatch(/internal error/i);
    expect(out.stderr).toContain('.claude/settings.json');
    expect(out.stderr).toContain('.claude/agents/bomb.md');
    expect(out.code).toBe(0);
    expect(w.exists('user-hook-ran')).toBe(true);
  });
});
