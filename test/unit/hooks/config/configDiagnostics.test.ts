import { handlerBody } from '../../../../src/hooks/config/hookConfigSchema';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readClaudeSettingsText } from '../../../../src/hooks/config/claudeSettingsReader';
import { closestName, formatConfigDiagnostic } from '../../../../src/configFiles/configDiagnostic';
import { standardConfigSources } from '../../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { HOOK_EVENTS } from '../../../../src/hooks/hookEvent';
import { bodyOf, FIXTURES, memoryFs } from './configTestKit';

const brokenFile = path.join(FIXTURES, 'broken', '.claude', 'settings.json');
const where = { file: brokenFile, displayFile: '.claude/settings.json' };

describe('a half-broken file yields its good parts', () => {
  const content = readClaudeSettingsText(readFileSync(brokenFile, 'utf8'), where);
  const byPath = (jsonPath: string) => content.diagnostics.filter((d) => d.jsonPath === jsonPath);

  it('loads every good handler, in order', () => {
    expect(content.hooks.map((h) => [h.event, handlerBody(h.handler)])).toEqual([
      ['PreToolUse', 'echo good-1'],
      ['PreToolUse', 'echo millis'],
      ['PreToolUse', 'Is this safe? $ARGUMENTS'],
      ['Stop', 'echo good-stop'],
    ]);
  });

  it('unknown event name → warning on the key, with the closest known name (the rest of the file loads)', () => {
    expect(byPath('hooks.PreToolUSe')).toEqual([
      expect.objectContaining({
        file: brokenFile,
        displayFile: '.claude/settings.json',
        line: 4,
        column: 5,
        severity: 'warning',
        code: 'unknownEvent',
        suggestion: 'PreToolUse',
      }),
    ]);
    expect(byPath('hooks.PreToolUSe')[0]?.message).toContain('did you mean "PreToolUse"?');
  });

  it('invalid regex matcher → error, group skipped', () => {
    expect(byPath('hooks.PreToolUse[0].matcher')).toEqual([expect.objectContaining({ line: 8, column: 20, severity: 'error', code: 'invalidMatcher' })]);
    expect(byPath('hooks.PreToolUse[0].matcher')[0]?.message).toMatch(/invalid regex matcher "\[Bash"/);
  });

  it('wrong type: timeout "60"', () => {
    expect(byPath('hooks.PreToolUse[1].hooks[1].timeout')).toEqual([
      expect.objectContaining({
        line: 13,
        column: 77,
        severity: 'error',
        code: 'wrongType',
        message: expect.stringContaining('"timeout" must be a number (seconds), got the string "60"'),
      }),
    ]);
  });

  it('wrong type: missing command points at the handler', () => {
    expect(byPath('hooks.PreToolUse[1].hooks[2].command')).toEqual([
      expect.objectContaining({
        line: 14,
        column: 11,
        severity: 'error',
        code: 'wrongType',
        message: expect.stringContaining('missing required field "command"'),
      }),
    ]);
  });

  it('timeout that looks like milliseconds → warning, still loaded', () => {
    expect(byPath('hooks.PreToolUse[1].hooks[3].timeout')).toEqual([
      expect.objectContaining({
        line: 15,
        severity: 'warning',
        code: 'timeoutInMilliseconds',
        message: 'timeout is in seconds; 30000 s is 8.3 hours — did you mean 30? (loaded as 600, the maximum)',
        suggestion: '30',
      }),
    ]);
    expect(content.hooks[1]?.handler.timeout).toBe(600);
  });

  it('unknown handler type → error on "type"', () => {
    expect(byPath('hooks.PreToolUse[1].hooks[4].type')).toEqual([
      expect.objectContaining({ line: 16, severity: 'error', code: 'unknownHandlerType', message: expect.stringContaining('unknown hook type "webhook"') }),
    ]);
  });

  it('wrong type: hooks not an array', () => {
    expect(byPath('hooks.PreToolUse[2].hooks')).toEqual([expect.objectContaining({ line: 20, column: 37, severity: 'error', code: 'wrongType' })]);
  });

  it('reports nothing else (trailing comma on line 24 is allowed)', () => {
    expect(content.diagnostics).toHaveLength(7);
    expect(formatConfigDiagnostic(byPath('hooks.PreToolUSe')[0]!)).toMatch(/^\.claude\/settings\.json:4:5 warning hooks\.PreToolUSe: unknown event/);
  });
});

describe('a file that is not JSON disables only itself, loudly', () => {
  it('one error, no hooks from it, every other source still loads', async () => {
    const config = await loadHookConfig(
      standardConfigSources({ homeDir: path.join(FIXTURES, 'merge', 'home'), folders: [{ root: path.join(FIXTURES, 'notJson') }] }),
    );
    expect(config.diagnostics).toEqual([
      expect.objectContaining({
        displayFile: '.claude/settings.json',
        line: 1,
        column: 1,
        severity: 'error',
        code: 'notJson',
        message: expect.stringContaining('this file is ignored entirely'),
      }),
    ]);
    expect(config.hooks.map(bodyOf)).toEqual(['echo user-claude', 'echo user-agent']);
  });

  it('syntax errors inside an object are reported and the recoverable part loads', () => {
    const text = '{\n  "hooks": {\n    "Stop": [{ "hooks": [{ "type": "command", "command": "echo ok" }] }]\n  }\n  "disableAllHooks": false\n}\n';
    const content = readClaudeSettingsText(text, { displayFile: 'x.json' });
    expect(content.diagnostics).toEqual([expect.objectContaining({ line: 5, code: 'syntaxError', severity: 'error' })]);
    expect(content.hooks).toHaveLength(1);
  });

  it('a BOM does not shift lines or columns', () => {
    const content = readClaudeSettingsText('\uFEFF{\n  "hooks": { "Stopp": [] }\n}', { displayFile: 'x.json' });
    expect(content.diagnostics).toEqual([expect.objectContaining({ line: 2, column: 14, code: 'unknownEvent' })]);
  });

  it('an unreadable file is an error diagnostic, not a crash', async () => {
    const fs = {
      readTextFile: async () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
      listDirectory: async () => [],
    };
    const config = await loadHookConfig(
      [{ kind: 'claudeSettingsFile', scope: 'project', file: '/ws/.claude/settings.json', displayFile: '.claude/settings.json' }],
      { fs },
    );
    expect(config.diagnostics).toEqual([expect.objectContaining({ code: 'unreadable', severity: 'error' })]);
  });
});

describe('more diagnostics', () => {
  const read = (hooks: unknown) => readClaudeSettingsText(JSON.stringify({ hooks }, null, 2), { displayFile: 'x.json' });

  it('closest event names', () => {
    expect(closestName('PreToolUSe', HOOK_EVENTS)).toBe('PreToolUse');
    expect(closestName('pretooluse', HOOK_EVENTS)).toBe('PreToolUse');
    expect(closestName('SubAgentStop', HOOK_EVENTS)).toBe('SubagentStop');
    expect(closestName('Banana', HOOK_EVENTS)).toBeUndefined();
  });

  it("Claude Code events that have no meaning here (teammates, worktrees) are accepted without a diagnostic; Hookwise's own 2026 events load", () => {
    const content = read({
      TeammateIdle: [{ hooks: [{ type: 'command', command: 'a' }] }],
      WorktreeCreate: [],
      PostCompact: [{ hooks: [{ type: 'command', command: 'b' }] }],
    });
    expect(content.diagnostics).toEqual([]);
    expect(content.hooks.map((h) => h.event)).toEqual(['PostCompact']);
  });

  it('hooks not an object; event value not an array; group not an object; missing hooks', () => {
    expect(read([1]).diagnostics[0]).toMatchObject({ jsonPath: 'hooks', code: 'wrongType', line: 2 });
    expect(read({ Stop: 5 }).diagnostics[0]).toMatchObject({ jsonPath: 'hooks.Stop', code: 'wrongType' });
    expect(read({ Stop: [5] }).diagnostics[0]).toMatchObject({ jsonPath: 'hooks.Stop[0]', code: 'wrongType' });
    expect(read({ Stop: [{ matcher: '' }] }).diagnostics[0]).toMatchObject({
      jsonPath: 'hooks.Stop[0].hooks',
      code: 'wrongType',
      message: expect.stringContaining('missing required field "hooks"'),
    });
  });

  it('unknown fields, ignored and suspicious matchers, once in settings are warnings and the hook loads; async is a supported field', () => {
    const content = read({
      Stop: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'a', async: true, once: true, colour: 'red' }] }],
      PreToolUse: [{ matcher: 'Write, Edit', hooks: [{ type: 'command', command: 'b' }] }],
    });
    expect(content.hooks).toHaveLength(2);
    expect(content.diagnostics.map((d) => [d.severity, d.code, d.jsonPath])).toEqual([
      ['warning', 'ignoredMatcher', 'hooks.Stop[0].matcher'],
      ['warning', 'unknownField', 'hooks.Stop[0].hooks[0].colour'],
      ['warning', 'ignoredOnce', 'hooks.Stop[0].hooks[0].once'],
      ['warning', 'suspiciousMatcher', 'hooks.PreToolUse[0].matcher'],
    ]);
  });

  it('a matcher written inside a handler is flagged where it is, saying where it belongs and that the hook runs for every tool', () => {
    const content = read({ PreToolUse: [{ hooks: [{ type: 'command', command: 'guard.sh', matcher: 'Bash' }] }] });
    expect(content.hooks).toHaveLength(1);
    expect(content.hooks[0]?.matcher).toBeUndefined();
    expect(content.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        jsonPath: 'hooks.PreToolUse[0].hooks[0].matcher',
        message: expect.stringMatching(/"matcher" belongs on the matcher group, beside "hooks".*runs for every match of its group/),
      }),
    ]);
  });

  it('Hookwise fields are validated too', () => {
    const content = read({
      Stop: [
        {
          hooks: [
            { type: 'prompt', prompt: 'p', priority: 1.5 },
            { type: 'agent', prompt: '', continueOnFailure: 'yes' },
          ],
        },
      ],
    });
    expect(content.hooks).toEqual([]);
    expect(content.diagnostics.map((d) => d.jsonPath)).toEqual([
      'hooks.Stop[0].hooks[0].priority',
      'hooks.Stop[0].hooks[1].prompt',
      'hooks.Stop[0].hooks[1].continueOnFailure',
    ]);
    expect(content.diagnostics[0]?.message).toContain('"priority" must be an integer');
    expect(content.diagnostics[1]?.message).toContain('"prompt" must not be empty');
  });

  it('bad permission rules are skipped with a diagnostic', () => {
    const content = readClaudeSettingsText('{"permissions": {"allow": ["Bash(", 3, "WebFetch(domain:example.com)", "Read"], "defaultMode": "yolo"}}', {
      displayFile: 'x.json',
    });
    expect(content.permissionRules.map((r) => r.rule.text)).toEqual(['WebFetch(domain:example.com)', 'Read']);
    expect(content.diagnostics.map((d) => [d.code, d.jsonPath, d.severity])).toEqual([
      ['invalidPermissionRule', 'permissions.allow[0]', 'error'],
      ['wrongType', 'permissions.allow[1]', 'error'],
      ['invalidPermissionRule', 'permissions.allow[2]', 'warning'],
      ['wrongType', 'permissions.defaultMode', 'error'],
    ]);
  });

  it('an agent file with broken YAML frontmatter disables only itself', async () => {
    const fs = memoryFs({
      '/ws/.claude/agents/bad.md': '---\nname: bad\nhooks: [unclosed\n---\nbody\n',
      '/ws/.claude/agents/good.md': '---\nname: good\nhooks:\n  Stop:\n    - hooks:\n        - {type: command, command: echo good}\n---\n',
    });
    const config = await loadHookConfig(
      [{ kind: 'agentsDirectory', scope: 'project', dir: '/ws/.claude/agents', displayDir: '.claude/agents', folder: '/ws' }],
      { fs },
    );
    expect(config.diagnostics).toEqual([expect.objectContaining({ displayFile: '.claude/agents/bad.md', code: 'agentFrontmatter', severity: 'error' })]);
    expect(config.hooks).toEqual([expect.objectContaining({ event: 'SubagentStop', agentType: 'good' })]);
  });
});
