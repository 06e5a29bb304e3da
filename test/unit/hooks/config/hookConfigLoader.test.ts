import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSource } from '../../../../src/configFiles/hookSource';
import { standardConfigSources, type ConfigSourceInput } from '../../../../src/hooks/config/configSources';
import { buildHookConfig, loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { describeLoadedHook, hooksForCwd } from '../../../../src/hooks/config/loadedHook';
import { bodyOf, FIXTURES, memoryFs } from './configTestKit';

const home = path.join(FIXTURES, 'merge', 'home');
const project = path.join(FIXTURES, 'merge', 'project');
const hooksValue = (command: string) => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] });

function mergeInputs(): ConfigSourceInput[] {
  const inputs = standardConfigSources({
    homeDir: home,
    folders: [{ root: project }],
    userSettings: { value: hooksValue('echo vscode-user') },
    workspaceSettings: { value: hooksValue('echo vscode-workspace') },
  });
  inputs.push({ kind: 'settingsValue', scope: 'workspaceFolder', value: hooksValue('echo vscode-folder'), folder: project });
  // The loader merges in docs/hooks.md §6 order whatever order it is given.
  return inputs.reverse();
}

describe('loadHookConfig: merge order across every source', () => {
  it('concatenates user settings → ~/.claude → project → local → workspace → folder → agent files', async () => {
    const config = await loadHookConfig(mergeInputs());
    const pre = config.hooks.filter((h) => h.event === 'PreToolUse').map(bodyOf);
    expect(pre).toEqual([
      'echo vscode-user',
      'echo user-claude',
      'echo project',
      'echo local',
      'echo vscode-workspace',
      'echo vscode-folder',
      'echo user-agent',
    ]);
    expect(config.disabled).toBe(false);
  });

  it('tags each hook with its source and JSON path', async () => {
    const config = await loadHookConfig(mergeInputs());
    const described = Object.fromEntries(config.hooks.map((h) => [bodyOf(h), describeSource(h.source)]));
    expect(described['echo vscode-user']).toBe('user settings › hookwise.hooks.PreToolUse[0].hooks[0]');
    expect(described['echo user-claude']).toBe('~/.claude/settings.json › hooks.PreToolUse[0].hooks[0]');
    expect(described['echo project']).toBe('.claude/settings.json › hooks.PreToolUse[0].hooks[0]');
    expect(described['echo project-post-2']).toBe('.claude/settings.json › hooks.PostToolUse[0].hooks[1]');
    expect(described['echo local']).toBe('.claude/settings.local.json › hooks.PreToolUse[0].hooks[0]');
    expect(described['echo vscode-folder']).toBe('folder settings › hookwise.hooks.PreToolUse[0].hooks[0]');
    expect(described['echo tester-stop']).toBe('.claude/agents/tester.md › hooks.Stop[0].hooks[0]');
    expect(described['echo user-agent']).toBe('~/.claude/agents/reviewer.md › hooks.PreToolUse[0].hooks[0]');
    const project = config.hooks.find((h) => bodyOf(h) === 'echo project');
    expect(project?.source).toMatchObject({ kind: 'file', scope: 'project', file: path.join(FIXTURES, 'merge', 'project', '.claude', 'settings.json') });
    expect(project?.handler).toEqual({ type: 'command', command: 'echo project', timeout: 10 });
    expect(project?.matcher).toBe('Bash');
    expect(project?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(describeLoadedHook(project!)).toBe('PreToolUse [Bash] command: echo project (timeout 10 s) — .claude/settings.json › hooks.PreToolUse[0].hooks[0]');
  });

  it('reads JSONC (comments, trailing commas) and ignores unrelated keys', async () => {
    const config = await loadHookConfig(mergeInputs());
    expect(config.diagnostics.filter((d) => d.displayFile === '.claude/settings.json')).toEqual([]);
    expect(config.hooks.map(bodyOf)).toContain('echo project-post-2');
  });

  it('dedups identical commands, keeping the first and recording the dropped one', async () => {
    const config = await loadHookConfig(mergeInputs());
    expect(config.hooks.filter((h) => bodyOf(h) === 'echo user-claude')).toHaveLength(1);
    expect(config.duplicates).toHaveLength(1);
    expect(describeSource(config.duplicates[0]!.dropped.source)).toBe('.claude/settings.json › hooks.PreToolUse[0].hooks[1]');
    expect(describeSource(config.duplicates[0]!.keptSource)).toBe('~/.claude/settings.json › hooks.PreToolUse[0].hooks[0]');
  });

  it('skips enabled:false handlers', async () => {
    const config = await loadHookConfig(mergeInputs());
    expect(config.hooks.map(bodyOf)).not.toContain('echo project-post');
  });

  it('scopes agent-file hooks to the agent; Stop there becomes SubagentStop', async () => {
    const config = await loadHookConfig(mergeInputs());
    const stop = config.hooks.find((h) => bodyOf(h) === 'echo tester-stop');
    expect(stop).toMatchObject({ event: 'SubagentStop', agentType: 'tester', folder: project });
    expect(stop?.source).toMatchObject({ kind: 'file', scope: 'projectAgent' });
    expect(config.hooks.find((h) => bodyOf(h) === 'echo user-agent')).toMatchObject({ event: 'PreToolUse', agentType: 'code-reviewer', matcher: 'Read' });
    expect(config.hooks.filter((h) => h.agentType === undefined && h.event === 'SubagentStop')).toEqual([]);
    // The bad tester hook (timeout "5") is reported with its line in the .md file, not loaded.
    const bad = config.diagnostics.find((d) => d.displayFile === '.claude/agents/tester.md');
    expect(bad).toMatchObject({ jsonPath: 'hooks.PreToolUse[0].hooks[0].timeout', line: 14, severity: 'error', code: 'wrongType' });
    expect(config.hooks.map(bodyOf)).not.toContain('echo tester-pre');
  });

  it('merges permissions with their sources; the last defaultMode wins', async () => {
    const config = await loadHookConfig(mergeInputs());
    expect(config.permissions.rules.map((r) => [r.behavior, r.rule.text, describeSource(r.source)])).toEqual([
      ['allow', 'Bash(npm test:*)', '~/.claude/settings.json › permissions.allow[0]'],
      ['deny', 'Read(./.env)', '.claude/settings.json › permissions.deny[0]'],
      ['allow', 'Edit(src/**)', '.claude/settings.local.json › permissions.allow[0]'],
    ]);
    expect(config.permissions.defaultMode?.value).toBe('acceptEdits');
  });

  it('filters by hookwise.hooks.sources', async () => {
    const config = await loadHookConfig(mergeInputs(), { sources: ['project', 'agents'] });
    expect(config.hooks.filter((h) => h.event === 'PreToolUse').map(bodyOf)).toEqual(['echo project', 'echo user-claude', 'echo user-agent']);
  });

  it('missing files are fine, without diagnostics', async () => {
    const config = await loadHookConfig(
      standardConfigSources({ homeDir: path.join(FIXTURES, 'nowhere'), folders: [{ root: path.join(FIXTURES, 'nowhere-either') }] }),
    );
    expect(config).toMatchObject({ hooks: [], diagnostics: [], disabled: false });
  });
});

describe('disableAllHooks', () => {
  const fs = memoryFs({
    '/home/u/.claude/settings.json': JSON.stringify({ hooks: hooksValue('echo user') }),
    '/ws/.claude/settings.local.json': '{ "disableAllHooks": true }',
  });
  const inputs = standardConfigSources({ homeDir: '/home/u', folders: [{ root: '/ws' }] });

  it("true in a project file turns off only the project's hooks; the user's still run, and the file is told so", async () => {
    const config = await loadHookConfig(inputs, { fs });
    expect(config).toMatchObject({ disabled: false, disabledBy: [], projectHooksOffBy: ['.claude/settings.local.json'] });
    expect(config.hooks.map(bodyOf)).toEqual(['echo user']);
    expect(config.diagnostics).toContainEqual(
      expect.objectContaining({
        displayFile: '.claude/settings.local.json',
        jsonPath: 'disableAllHooks',
        code: 'cannotLoosen',
        message: expect.stringMatching(/^ignored for the user's hooks: a project file cannot disable the user's 1 hook\(s\)/),
      }),
    );
  });

  it('true in the user file turns every hook off and says which source', async () => {
    const userOff = memoryFs({
      '/home/u/.claude/settings.json': JSON.stringify({ disableAllHooks: true, hooks: hooksValue('echo user') }),
      '/ws/.claude/settings.json': JSON.stringify({ hooks: hooksValue('echo project') }),
    });
    const config = await loadHookConfig(inputs, { fs: userOff });
    expect(config).toMatchObject({ hooks: [], disabled: true, disabledBy: ['~/.claude/settings.json'] });
  });

  it('hookwise.hooks.enabled: false does the same', async () => {
    const config = buildHookConfig([{ input: { kind: 'settingsValue', scope: 'user', value: hooksValue('echo a') } }], { enabled: false });
    expect(config).toMatchObject({ hooks: [], disabled: true, disabledBy: ['hookwise.hooks.enabled'] });
  });
});

describe('multi-root workspaces', () => {
  const fs = memoryFs({
    '/home/u/.claude/settings.json': JSON.stringify({ hooks: hooksValue('echo user') }),
    '/ws/a/.claude/settings.json': JSON.stringify({ hooks: hooksValue('echo a') }),
    '/ws/b/.claude/settings.json': JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'echo b' },
              { type: 'command', command: 'echo shared' },
            ],
          },
        ],
      },
    }),
    '/ws/a/.claude/settings.local.json': JSON.stringify({ hooks: hooksValue('echo shared') }),
  });
  const inputs = standardConfigSources({
    homeDir: '/home/u',
    folders: [
      { root: '/ws/a', name: 'a' },
      { root: '/ws/b', name: 'b' },
    ],
    workspaceSettings: { value: hooksValue('echo shared') },
  });

  it("each folder's hooks apply only to sessions whose cwd is inside it", async () => {
    const config = await loadHookConfig(inputs, { fs });
    expect(config.hooks.find((h) => bodyOf(h) === 'echo a')?.source).toMatchObject({ displayFile: 'a/.claude/settings.json' });
    expect(hooksForCwd(config.hooks, '/ws/a/src').map(bodyOf)).toEqual(['echo user', 'echo a', 'echo shared']);
    expect(hooksForCwd(config.hooks, '/ws/b').map(bodyOf)).toEqual(['echo user', 'echo b', 'echo shared']);
    expect(hooksForCwd(config.hooks, '/elsewhere').map(bodyOf)).toEqual(['echo user', 'echo shared']);
    // Same command in two folders: both kept at load (different folders), once per session.
    expect(config.hooks.filter((h) => bodyOf(h) === 'echo shared').map((h) => h.folder)).toEqual(['/ws/b', '/ws/a', undefined]);
  });
});

describe('VS Code settings layers', () => {
  it('ignores the enabled/sources keys VS Code nests into the hookwise.hooks value', () => {
    const config = buildHookConfig([{ input: { kind: 'settingsValue', scope: 'user', value: { ...hooksValue('echo a'), enabled: true, sources: ['user'] } } }]);
    expect(config.diagnostics).toEqual([]);
    expect(config.hooks.map(bodyOf)).toEqual(['echo a']);
  });

  it('locates diagnostics in the settings file text when given', () => {
    const text = '{\n  "editor.tabSize": 2,\n  "hookwise.hooks": {\n    "Stopp": []\n  }\n}\n';
    const config = buildHookConfig([{ input: { kind: 'settingsValue', scope: 'workspace', value: { Stopp: [] }, file: '/ws/.vscode/settings.json', text } }]);
    expect(config.diagnostics).toEqual([
      expect.objectContaining({
        file: '/ws/.vscode/settings.json',
        displayFile: 'workspace settings',
        jsonPath: 'hookwise.hooks.Stopp',
        line: 4,
        column: 5,
        code: 'unknownEvent',
        suggestion: 'Stop',
      }),
    ]);
  });
});

describe('managed policy and duplicates', () => {
  const hook = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit.sh' }] }] } };
  const file = (scope: 'user' | 'managed', value: unknown) => ({
    input: { kind: 'claudeSettingsFile' as const, scope, file: `/${scope}.json`, displayFile: `${scope}.json` },
    text: JSON.stringify(value),
  });
  it('a policy hook that a user file repeats still runs under allowManagedHooksOnly and a user disableAllHooks (the copy is not what dedup keeps)', () => {
    const onlyManaged = buildHookConfig([file('user', hook), file('managed', { ...hook, allowManagedHooksOnly: true })]);
    expect(onlyManaged.hooks.map((h) => describeSource(h.source))).toEqual(['managed.json › hooks.PreToolUse[0].hooks[0]']);
    const userOff = buildHookConfig([file('user', { ...hook, disableAllHooks: true }), file('managed', hook)]);
    expect(userOff.hooks.map((h) => describeSource(h.source))).toEqual(['managed.json › hooks.PreToolUse[0].hooks[0]']);
  });
});
