import { describe, expect, it } from 'vitest';
import { codexFormat } from '../../../../src/hooks/formats/codex/codexFormat';
import { codexVerdict } from '../../../../src/hooks/formats/codex/codexRuntime';
import type { FormatBinding, FormatRun } from '../../../../src/hooks/formats/hookFormat';
import type { HookMatcher } from '../../../../src/hooks/matchers/hookMatcher';

const json = { file: '/ws/.codex/hooks.json', displayFile: '.codex/hooks.json', scope: 'project' as const };
const toml = { file: '/ws/.codex/config.toml', displayFile: '.codex/config.toml', scope: 'project' as const };
const binding: FormatBinding = { format: 'codex', nativeEvent: 'PreToolUse', options: { on: 'tool' } };
const run = (over: Partial<FormatRun>): FormatRun => ({
  event: 'PreToolUse',
  binding,
  exitCode: 0,
  stdout: '',
  stderr: '',
  input: { tool_name: 'Bash' },
  ...over,
});

describe('Codex hook files', () => {
  it('reads [hooks] tables of config.toml with timeouts in seconds; SessionEnd is capped at 3 s', () => {
    const content = codexFormat.parse(
      [
        '[[hooks.PreToolUse]]',
        'matcher = "^Bash$"',
        '[[hooks.PreToolUse.hooks]]',
        'type = "command"',
        'command = "python3 policy.py"',
        'timeout = 30',
        '[[hooks.SessionEnd]]',
        '[[hooks.SessionEnd.hooks]]',
        'command = "./bye.sh"',
        'timeout = 60',
      ].join('\n'),
      toml,
    );
    expect(content.hooks.map((h) => [h.event, h.binding.matcher, h.binding.timeoutMs, h.command])).toEqual([
      ['PreToolUse', '^Bash$', 30_000, 'python3 policy.py'],
      ['SessionEnd', undefined, 3_000, './bye.sh'],
    ]);
    expect(content.diagnostics).toEqual([]);
  });

  it('a TOML syntax error is one error with its line; [features] hooks = false turns the file off with a warning', () => {
    const broken = codexFormat.parse('model = "x"\n[hooks\n', toml);
    expect(broken.hooks).toEqual([]);
    expect(broken.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'syntaxError', line: 2, displayFile: '.codex/config.toml' })]);
    const off = codexFormat.parse('[features]\nhooks = false\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = "x"\n', toml);
    expect(off.hooks).toEqual([]);
    expect(off.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', jsonPath: 'features' })]);
  });

  // A malformed [hooks] table in config.toml is a Problems entry on the line that is wrong, as in a JSON file.
  it.each([
    ['an event that is not a list', ['model = "x"', '[hooks]', 'Stop = "oops"'], 'hooks.Stop', 3],
    [
      'a command of the wrong type',
      ['[[hooks.PreToolUse]]', 'matcher = "Bash"', '[[hooks.PreToolUse.hooks]]', 'type = "command"', 'command = 7'],
      'hooks.PreToolUse[0].hooks[0].command',
      5,
    ],
    [
      'a wrong timeout in the second group of an event',
      ['[[hooks.Stop]]', '[[hooks.Stop.hooks]]', 'command = "./a.sh"', '', '[[hooks.Stop]]', '[[hooks.Stop.hooks]]', 'command = "./b.sh"', 'timeout = "soon"'],
      'hooks.Stop[1].hooks[0].timeout',
      8,
    ],
    ['an unknown key of a handler', ['[[hooks.Stop]]', '[[hooks.Stop.hooks]]', 'command = "./a.sh"', 'colour = "red"'], 'hooks.Stop[0].hooks[0].colour', 4],
    ['an unknown event', ['# team policy', '[[hooks.PreTool]]', '[[hooks.PreTool.hooks]]', 'command = "./a.sh"'], 'hooks.PreTool', 2],
    [
      'a wrong type inside an inline table',
      ['model = "x"', 'hooks = { PreToolUse = [ { hooks = [ { type = "command", command = "x", timeout = -1 } ] } ] }'],
      'hooks.PreToolUse[0].hooks[0].timeout',
      2,
    ],
    [
      'a wrong matcher in a multi-line array',
      ['[hooks]', 'PreToolUse = [', '  { hooks = [ { command = "x" } ] },', '  { matcher = 5, hooks = [ { command = "y" } ] },', ']'],
      'hooks.PreToolUse[1].matcher',
      4,
    ],
    [
      'a hooks switch that is not true or false',
      ['[features]', 'hooks = "yes"', '[[hooks.Stop]]', '[[hooks.Stop.hooks]]', 'command = "x"'],
      'features.hooks',
      2,
    ],
    [
      'a table header inside a multi-line string is not a header',
      ['instructions = """', '[hooks]', 'Stop = 1', '"""', '[hooks."Stop"]', 'x = 1'],
      'hooks.Stop',
      5,
    ],
  ])('%s names its line', (_name, lines, jsonPath, line) => {
    const content = codexFormat.parse(lines.join('\n'), toml);
    const at = content.diagnostics.filter((d) => d.jsonPath === jsonPath);
    expect(at, JSON.stringify(content.diagnostics)).not.toEqual([]);
    expect(at.map((d) => d.line)).toEqual(at.map(() => line));
  });

  it('warns for what does not carry over: mcp_tool and prompt hooks, async, a matcher on Stop', () => {
    const content = codexFormat.parse(
      JSON.stringify({
        hooks: {
          Stop: [{ matcher: 'x', hooks: [{ type: 'command', command: './a.sh', async: true }] }],
          PreToolUse: [
            {
              hooks: [
                { type: 'mcp_tool', server: 's', tool: 't' },
                { type: 'prompt', prompt: 'p' },
              ],
            },
          ],
        },
      }),
      json,
    );
    expect(content.hooks).toHaveLength(1);
    expect(content.diagnostics.map((d) => [d.severity, d.jsonPath])).toEqual(
      expect.arrayContaining([
        ['warning', 'hooks.Stop[0].matcher'],
        ['warning', 'hooks.Stop[0].hooks[0].async'],
        ['warning', 'hooks.PreToolUse[0].hooks[0].type'],
        ['warning', 'hooks.PreToolUse[0].hooks[1].type'],
      ]),
    );
  });

  it('matchers: Edit and Write name apply_patch, Agent names spawn_agent; PostToolUse sees failures of Bash only', () => {
    const m = codexFormat.compileMatcher({ ...binding, matcher: '^Write$' }, 'PreToolUse') as HookMatcher;
    expect(m.matches({ event: 'PreToolUse', input: { tool_name: 'Edit' } })).toBe(true);
    expect(m.matches({ event: 'PreToolUse', input: { tool_name: 'Bash' } })).toBe(false);
    const failures = codexFormat.compileMatcher({ format: 'codex', nativeEvent: 'PostToolUse', options: { on: 'tool' } }, 'PostToolUseFailure') as HookMatcher;
    expect(failures.matches({ event: 'PostToolUseFailure', input: { tool_name: 'Bash' } })).toBe(true);
    expect(failures.matches({ event: 'PostToolUseFailure', input: { tool_name: 'Read' } })).toBe(false);
  });

  it('output: exit 2 blocks with stderr; other failures fail open; PermissionRequest extras fail closed; Stop block continues', () => {
    expect(codexVerdict(run({ exitCode: 2, stderr: 'nope' }))).toMatchObject({ outcome: { decision: 'deny', reason: 'nope' } });
    expect(codexVerdict(run({ exitCode: 1 }))).toMatchObject({ status: 'failed' });
    expect(codexVerdict(run({ stdout: '{"hookSpecificOutput":{"permissionDecision":"allow"}}' }))).toEqual({ status: 'ok', outcome: {} });
    expect(
      codexVerdict(run({ event: 'PermissionRequest', stdout: '{"hookSpecificOutput":{"decision":{"behavior":"allow","updatedPermissions":[]}}}' })),
    ).toMatchObject({ outcome: { decision: 'deny' } });
    expect(codexVerdict(run({ event: 'Stop', stdout: '{"decision":"block","reason":"tests first"}' }))).toMatchObject({
      outcome: { decision: 'continue', reason: 'tests first' },
    });
    expect(codexVerdict(run({ event: 'UserPromptSubmit', stdout: 'plain context' }))).toMatchObject({ outcome: { additionalContext: 'plain context' } });
    expect(codexVerdict(run({ event: 'PostToolUse', stdout: 'plain' }))).toEqual({ status: 'ok', outcome: {} });
  });
});
