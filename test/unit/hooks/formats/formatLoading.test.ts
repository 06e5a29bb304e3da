import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSource } from '../../../../src/configFiles/hookSource';
import { MAX_CONFIG_FILE_BYTES } from '../../../../src/configFiles/configLimits';
import { standardConfigSources } from '../../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { filterByTrust } from '../../../../src/hooks/config/hookApproval';
import { describeLoadedHook } from '../../../../src/hooks/config/loadedHook';
import { memoryFs } from '../config/configTestKit';

// Other agents' hook files load beside the .claude files: labelled with their format, held by
// trust and approval like project hooks, governed by managed policy, and a broken one is a
// diagnostic naming it while every other source still loads.

const HOME = path.resolve('/home/u');
const WS = path.resolve('/ws');
const at = (...p: string[]): string => path.join(WS, ...p);
const claudeHook = JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './claude.sh' }] }] } });
const copilotFile = JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', matcher: 'bash', bash: './guard.sh', timeoutSec: 10 }] } });
const cursorFile = JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: './block-git.sh', failClosed: true }] } });
const windsurfFile = JSON.stringify({ hooks: { pre_run_command: [{ command: 'python3 guard.py' }] } });

function load(files: Record<string, string>, formats?: readonly ('copilot' | 'cursor' | 'windsurf')[], managed?: string) {
  const sources = standardConfigSources({ homeDir: HOME, folders: [{ root: WS }], managedSettingsFile: managed ?? null, ...(formats ? { formats } : {}) });
  return loadHookConfig(sources, { fs: memoryFs(files) });
}

describe('loading other agents’ hook files', () => {
  it('reads each format where its agent does, after the .claude files, labelled with the format', async () => {
    const config = await load({
      [at('.claude', 'settings.json')]: claudeHook,
      [at('.github', 'hooks', 'guard.json')]: copilotFile,
      [at('.cursor', 'hooks.json')]: cursorFile,
      [at('.windsurf', 'hooks.json')]: windsurfFile,
      [path.join(HOME, '.cursor', 'hooks.json')]: JSON.stringify({ version: 1, hooks: { stop: [{ command: 'echo done' }] } }),
    });
    expect(config.diagnostics).toEqual([]);
    expect(config.hooks.map((h) => [h.event, describeSource(h.source)])).toEqual([
      ['Stop', 'Cursor ~/.cursor/hooks.json › hooks.stop[0]'],
      ['PreToolUse', '.claude/settings.json › hooks.PreToolUse[0].hooks[0]'],
      ['PreToolUse', 'Copilot .github/hooks/guard.json › hooks.preToolUse[0]'],
      ['PreToolUse', 'Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]'],
      ['PreToolUse', 'Windsurf .windsurf/hooks.json › hooks.pre_run_command[0]'],
    ]);
  });

  it('project files need trust and approval; the user’s do not', async () => {
    const config = await load({ [at('.cursor', 'hooks.json')]: cursorFile, [path.join(HOME, '.cursor', 'hooks.json')]: cursorFile });
    const untrusted = filterByTrust(config.hooks, { trusted: false });
    expect(untrusted.runnable.map((h) => describeSource(h.source))).toEqual(['Cursor ~/.cursor/hooks.json › hooks.beforeShellExecution[0]']);
    expect(untrusted.held.map((h) => h.why)).toEqual(['untrusted']);
  });

  it('the approval key covers the agent’s own fields: changing failClosed or the matcher asks again', async () => {
    const before = (await load({ [at('.cursor', 'hooks.json')]: cursorFile })).hooks[0]?.hash;
    const open = JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: './block-git.sh' }] } });
    const matcher = JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: './block-git.sh', failClosed: true, matcher: 'git' }] } });
    const hashes = [
      before,
      (await load({ [at('.cursor', 'hooks.json')]: open })).hooks[0]?.hash,
      (await load({ [at('.cursor', 'hooks.json')]: matcher })).hooks[0]?.hash,
    ];
    expect(new Set(hashes).size).toBe(3);
  });

  it('a Copilot hook and a .claude hook running the same command are two hooks (their semantics differ)', async () => {
    const same = JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: './guard.sh' }] }] } });
    const copilot = JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: './guard.sh' }] } });
    const config = await load({ [at('.claude', 'settings.json')]: same, [at('.github', 'hooks', 'a.json')]: copilot });
    expect(config.hooks).toHaveLength(2);
    expect(config.duplicates).toEqual([]);
  });

  it('hookwise.hooks.formats leaves a format out', async () => {
    const config = await load({ [at('.github', 'hooks', 'guard.json')]: copilotFile, [at('.cursor', 'hooks.json')]: cursorFile }, ['cursor']);
    expect(config.hooks.map((h) => describeSource(h.source))).toEqual(['Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]']);
  });

  it('managed allowManagedHooksOnly skips them; managed disableAllHooks turns them off', async () => {
    const managed = path.resolve('/etc/managed.json');
    const files = { [at('.cursor', 'hooks.json')]: cursorFile, [path.join(HOME, '.copilot', 'hooks', 'p.json')]: copilotFile };
    const only = await load({ ...files, [managed]: JSON.stringify({ allowManagedHooksOnly: true }) }, undefined, managed);
    expect(only.hooks).toEqual([]);
    expect(only.managedOnly?.hooks.map((h) => describeSource(h.source))).toEqual([
      'Copilot ~/.copilot/hooks/p.json › hooks.preToolUse[0]',
      'Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]',
    ]);
    const off = await load({ ...files, [managed]: JSON.stringify({ disableAllHooks: true }) }, undefined, managed);
    expect(off.hooks).toEqual([]);
    expect(off.disabled).toBe(true);
  });
});

describe('bad input in other agents’ files: a diagnostic naming the file, every other source still loads', () => {
  const others = { [at('.claude', 'settings.json')]: claudeHook, [at('.windsurf', 'hooks.json')]: windsurfFile };
  const cases: [string, string, string][] = [
    ['cut-off JSON', '{"version": 1, "hooks": {', 'syntaxError'],
    ['text that is not JSON', 'hooks: yes', 'notJson'],
    ['the wrong type at the top', '["not", "an", "object"]', 'notJson'],
    ['nested too deep', `{"hooks": ${'['.repeat(200)}${']'.repeat(200)}}`, 'tooDeep'],
    ['hooks of the wrong type', '{"version": 1, "hooks": "preToolUse"}', 'wrongType'],
    ['an entry of the wrong type', '{"version": 1, "hooks": {"beforeShellExecution": ["./x.sh"]}}', 'wrongType'],
  ];
  it.each(cases)('%s in .cursor/hooks.json', async (_what, text, code) => {
    const config = await load({ ...others, [at('.cursor', 'hooks.json')]: text });
    expect(config.diagnostics).toContainEqual(
      expect.objectContaining({ file: at('.cursor', 'hooks.json'), displayFile: '.cursor/hooks.json', severity: 'error', code }),
    );
    expect(config.hooks.map((h) => describeSource(h.source))).toEqual([
      '.claude/settings.json › hooks.PreToolUse[0].hooks[0]',
      'Windsurf .windsurf/hooks.json › hooks.pre_run_command[0]',
    ]);
  });

  it('a huge file is refused before it is parsed', async () => {
    const huge = `{"hooks": {}, "pad": "${'x'.repeat(MAX_CONFIG_FILE_BYTES)}"}`;
    const config = await load({ ...others, [at('.github', 'hooks', 'big.json')]: huge });
    expect(config.diagnostics).toContainEqual(expect.objectContaining({ displayFile: '.github/hooks/big.json', code: 'tooLarge' }));
    expect(config.hooks).toHaveLength(2);
  });

  it('a Copilot file with another version is dropped, as Copilot drops it', async () => {
    const config = await load({ ...others, [at('.github', 'hooks', 'v2.json')]: JSON.stringify({ version: 2, hooks: { preToolUse: [{ bash: './x.sh' }] } }) });
    expect(config.diagnostics).toContainEqual(expect.objectContaining({ displayFile: '.github/hooks/v2.json', jsonPath: 'version', severity: 'error' }));
    expect(config.hooks).toHaveLength(2);
  });
});

describe('what cannot carry over is a warning with file, line and JSON path, never silently dropped', () => {
  it('Cursor Tab events, unknown fields and loop_limit', async () => {
    const text =
      '{\n  "version": 1,\n  "hooks": {\n    "beforeTabFileRead": [{ "command": "./tab.sh" }],\n    "stop": [{ "command": "./stop.sh", "loop_limit": 3, "colour": "red" }]\n  }\n}\n';
    const config = await load({ [at('.cursor', 'hooks.json')]: text });
    const warnings = config.diagnostics.map((d) => [d.severity, d.code, d.jsonPath, d.line]);
    expect(warnings).toEqual([
      ['warning', 'notCarriedOver', 'hooks.beforeTabFileRead', 4],
      ['warning', 'notCarriedOver', 'hooks.stop[0].colour', 5],
      ['warning', 'notCarriedOver', 'hooks.stop[0].loop_limit', 5],
    ]);
    expect(config.hooks.map((h) => h.event)).toEqual(['Stop']);
  });

  it('Copilot prompt hooks (auto-submitted text) and userPromptTransformed', async () => {
    const text = JSON.stringify({
      version: 1,
      hooks: { sessionStart: [{ type: 'prompt', prompt: 'run the tests' }], userPromptTransformed: [{ bash: './t.sh' }] },
    });
    const config = await load({ [at('.github', 'hooks', 'h.json')]: text });
    expect(config.diagnostics.map((d) => [d.code, d.jsonPath])).toEqual([
      ['notCarriedOver', 'hooks.sessionStart[0].type'],
      ['notCarriedOver', 'hooks.userPromptTransformed'],
    ]);
    expect(config.diagnostics.every((d) => d.severity === 'warning' && d.displayFile === '.github/hooks/h.json')).toBe(true);
    expect(config.hooks).toEqual([]);
  });
});

describe('the one-line description (approval modal, Show Effective Hooks, the log) names the agent, its event and its own fields', () => {
  it('Cursor beforeShellExecution with failClosed', async () => {
    const config = await load({
      [at('.cursor', 'hooks.json')]: JSON.stringify({
        version: 1,
        hooks: { beforeShellExecution: [{ command: './g.sh', matcher: 'curl', failClosed: true }] },
      }),
    });
    expect(config.hooks.map(describeLoadedHook)).toEqual([
      'PreToolUse (Cursor beforeShellExecution; failClosed: true) [curl] command: ./g.sh — Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]',
    ]);
  });
});
