import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { locateHooks } from '../../../../src/hooks/config/hookLocations';
import { hookLocationId } from '../../../../src/hooks/config/hookSwitches';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A settings file with comments, trailing commas, two groups, a shorthand and an invalid handler. */
const SETTINGS = `{
  // team hooks
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "./check.sh", },   // first
          { "type": "http", "url": "http://127.0.0.1:9/hook" },
        ],
      },
      { "matcher": "Write|Edit", "hooks": [{ "type": "prompt", "prompt": "Is this edit safe?" }] },
    ],
    /* a bare command string is a one-handler group */
    "Stop": ["echo done"],
    "UserPromptSubmit": [{ "hooks": [{ "type": "command" }] }],
  },
}`;

function slice(text: string, span: { offset: number; length: number }): string {
  return text.slice(span.offset, span.offset + span.length);
}

describe('locateHooks', () => {
  it('finds each valid handler of a JSONC settings file with the id the loader gives it and its range', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hw-locate-'));
    dirs.push(dir);
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, SETTINGS);
    const loaded = await loadHookConfig([{ kind: 'claudeSettingsFile', scope: 'flag', file, displayFile: '.claude/settings.json' }]);

    const located = locateHooks(SETTINGS, { label: '.claude/settings.json', shape: 'claude' });

    expect(located.map((h) => h.id)).toEqual(loaded.hooks.map((h) => hookLocationId(h)));
    expect(located.map((h) => h.jsonPath)).toEqual([
      'hooks.PreToolUse[0].hooks[0]',
      'hooks.PreToolUse[0].hooks[1]',
      'hooks.PreToolUse[1].hooks[0]',
      'hooks.Stop[0]',
    ]);
    expect(slice(SETTINGS, located[0]!.range)).toBe('{ "type": "command", "command": "./check.sh", }');
    expect(located[0]!.body).toMatchObject({ field: 'command' });
    expect(slice(SETTINGS, located[0]!.body!)).toBe('"./check.sh"');
    expect(slice(SETTINGS, located[1]!.body!)).toBe('"http://127.0.0.1:9/hook"');
    expect(located[1]!.body!.field).toBe('url');
    expect(slice(SETTINGS, located[2]!.body!)).toBe('"Is this edit safe?"');
    expect(located[2]).toMatchObject({ event: 'PreToolUse', matcher: 'Write|Edit' });
    expect(slice(SETTINGS, located[3]!.body!)).toBe('"echo done"');
  });

  it('reads a plugin hooks.json with a description and labels ids with the plugin', () => {
    const text = `{
  "description": "Formats files after edits",
  "hooks": {
    "PostToolUse": [{ "matcher": "Write", "hooks": [{ "type": "command", "command": "\${CLAUDE_PLUGIN_ROOT}/scripts/format.sh" }] }]
  }
}`;
    const located = locateHooks(text, { label: 'plugin fmt › hooks/hooks.json', shape: 'claude' });
    expect(located.map((h) => h.id)).toEqual(['plugin fmt › hooks/hooks.json › hooks.PostToolUse[0].hooks[0]']);
    expect(slice(text, located[0]!.body!)).toBe('"${CLAUDE_PLUGIN_ROOT}/scripts/format.sh"');
  });

  it('reads the flat hookwise.hooks key of a VS Code settings.json, skipping its other keys', () => {
    const text = `{
  "editor.tabSize": 2,
  // hooks for this workspace
  "hookwise.hooks": {
    "enabled": true,
    "Stop": [{ "hooks": [{ "type": "command", "command": "npm test" }] }],
  },
  "hookwise.hooks.disabled": [],
}`;
    const located = locateHooks(text, { label: 'workspace settings', shape: 'vscodeSettings' });
    expect(located.map((h) => h.id)).toEqual(['workspace settings › hookwise.hooks.Stop[0].hooks[0]']);
    expect(slice(text, located[0]!.range)).toBe('{ "type": "command", "command": "npm test" }');
  });

  it('gives nothing for a text without hooks, a broken one, or one nested too deeply', () => {
    expect(locateHooks('{"model": "x"}', { label: 'a', shape: 'claude' })).toEqual([]);
    expect(locateHooks('{"hooks": ', { label: 'a', shape: 'claude' })).toEqual([]);
    expect(locateHooks(`{"hooks": {"Stop": ${'['.repeat(5000)}`, { label: 'a', shape: 'claude' })).toEqual([]);
  });
});

describe('locateHooks in agent and skill frontmatter', () => {
  it('locates YAML hooks with the ids the loader gives them (an agent Stop is SubagentStop)', async () => {
    const text = `---
name: reviewer
description: Reviews changes
hooks:
  Stop:
    - hooks:
        - type: command
          command: ./.claude/hooks/summary.sh
  PreToolUse:
    - matcher: Bash
      hooks:
        - type: prompt
          prompt: "Is this command safe?"
---
Review the diff.
`;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hw-locate-md-'));
    dirs.push(dir);
    const agents = path.join(dir, '.claude', 'agents');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(agents, { recursive: true });
    writeFileSync(path.join(agents, 'reviewer.md'), text);
    const loaded = await loadHookConfig([{ kind: 'agentsDirectory', scope: 'project', dir: agents, displayDir: '.claude/agents' }]);
    const label = describeLabel(loaded.hooks[0]?.source);

    const located = locateHooks(text, { label, shape: 'agentFile' });

    expect(located.map((h) => h.id)).toEqual(loaded.hooks.map((h) => hookLocationId(h)));
    expect(located.map((h) => h.event)).toEqual(['SubagentStop', 'PreToolUse']);
    expect(slice(text, located[0]!.body!)).toBe('./.claude/hooks/summary.sh');
    expect(slice(text, located[1]!.body!)).toBe('"Is this command safe?"');
    expect(slice(text, located[0]!.range)).toMatch(/^type: command\n\s+command: \.\/\.claude\/hooks\/summary\.sh/);
  });
});

function describeLabel(source: Parameters<typeof hookLocationId>[0]['source'] | undefined): string {
  if (!source || source.kind !== 'file') throw new Error('no file hook loaded');
  return hookLocationId({ source }).slice(0, -(source.jsonPath.length + 3));
}
