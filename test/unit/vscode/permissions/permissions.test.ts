import { describe, expect, it } from 'vitest';
import type { PermissionRequest } from '../../../../src/hooks/hookRunTypes';
import { addAllowRule, AllowRuleEditError } from '../../../../src/vscode/permissions/allowRuleEdit';
import { permissionButtons, permissionDetail, permissionQuestion, permissionRulePicks, toolInputSummary } from '../../../../src/presentation/permissionText';
import { proposedContent, proposedFile } from '../../../../src/vscode/permissions/proposedChange';
import { SerialQueue } from '../../../../src/shared/serialQueue';

const hookAsk: PermissionRequest = {
  agentId: 'main',
  parentAgentId: null,
  agentType: 'main',
  sessionId: 's',
  event: 'PreToolUse',
  toolName: 'Bash',
  toolInput: { command: 'rm -rf build' },
  reason: 'deleting files needs a person',
  kind: 'hook',
  askedBy: [
    {
      hookLabel: './guard.sh',
      source: {
        kind: 'file',
        scope: 'project',
        file: '/ws/.claude/settings.json',
        displayFile: '.claude/settings.json',
        jsonPath: 'hooks.PreToolUse[0].hooks[0]',
      },
    },
  ],
};
const ruleAsk: PermissionRequest = {
  ...hookAsk,
  kind: 'rule',
  askedBy: [],
  reason: 'Bash needs your approval',
  suggestedRule: 'Bash(rm -rf:*)',
  agentId: 'agent-7f3a9c21-aaaa',
  parentAgentId: 'main',
  agentType: 'Explore',
};

describe('approval popup text', () => {
  it('names the tool and the agent', () => {
    expect(permissionQuestion(hookAsk)).toBe('Allow Bash for the main agent?');
    expect(permissionQuestion(ruleAsk)).toBe('Allow Bash for subagent Explore (agent-7f)?');
    expect(permissionQuestion({ ...hookAsk, toolName: undefined, event: 'SubagentStart' })).toBe('Allow SubagentStart for the main agent?');
  });

  it('names the server and the tool of an MCP call, and shows its arguments as JSON', () => {
    const mcp = { ...ruleAsk, parentAgentId: null, toolName: 'mcp__github__create_issue', toolInput: { command: 'not a shell command', title: 'Bug' } };
    expect(permissionQuestion(mcp)).toBe('Allow tool create_issue of MCP server github for the main agent?');
    expect(permissionDetail(mcp)).toContain('"command": "not a shell command"');
  });

  it('details the input, the reason and the hook that asked', () => {
    expect(permissionDetail(hookAsk)).toBe(
      '$ rm -rf build\n\nReason: deleting files needs a person\nAsked by hook: ./guard.sh\n  .claude/settings.json › hooks.PreToolUse[0].hooks[0]',
    );
    expect(permissionDetail(ruleAsk)).toContain('"Always Allow" adds Bash(rm -rf:*) to permissions.allow in .claude/settings.local.json.');
    // Nowhere to write (an untrusted folder): the detail says the rule stays in memory, and names no file.
    const nowhere = permissionDetail(ruleAsk, null);
    expect(nowhere).toContain(
      'No rule is written to a file here (an untrusted folder, or no folder open): "Allow for This Session" keeps Bash(rm -rf:*) in memory',
    );
    expect(nowhere).not.toContain('settings.local.json');
    expect(toolInputSummary({ file_path: '/ws/a.ts', content: 'x' })).toBe('/ws/a.ts');
    expect(toolInputSummary({ pattern: 'x' })).toBe('{\n "pattern": "x"\n}');
  });

  it('offers Allow / Deny for a hook ask and the session / always choices for a rule ask', () => {
    expect(permissionButtons(hookAsk, true)).toEqual(['Allow', 'Deny']);
    expect(permissionButtons(ruleAsk, true)).toEqual(['Allow', 'Allow for This Session', 'Always Allow', 'Deny']);
    expect(permissionButtons(ruleAsk, false)).toEqual(['Allow', 'Allow for This Session', 'Deny']);
    // No rule to grant (a protected write): a session choice would only mean "once".
    expect(permissionButtons({ ...ruleAsk, suggestedRule: undefined }, true)).toEqual(['Allow', 'Deny']);
  });

  it('never shows more than four buttons: a reviewable file write trades the session button for the rule picker', () => {
    const write = { ...ruleAsk, toolName: 'Write', toolInput: { file_path: 'src/a.ts', content: 'x' }, suggestedRule: 'Edit(src/a.ts)' };
    expect(permissionButtons(write, true, true)).toEqual(['Allow', 'Review Diff…', 'Always Allow…', 'Deny']);
    expect(permissionButtons(write, false, true)).toEqual(['Allow', 'Review Diff…', 'Allow for This Session…', 'Deny']);
    expect(permissionButtons(write, true, false)).toEqual(['Allow', 'Always Allow…', 'Deny']);
    expect(permissionButtons({ ...write, suggestedRule: 'Edit(a.ts)' }, true, false)).toEqual(['Allow', 'Allow for This Session', 'Always Allow', 'Deny']);
    expect(permissionButtons({ ...write, kind: 'hook' }, true, true)).toEqual(['Allow', 'Review Diff…', 'Deny']);
    expect(permissionDetail(write, '.claude/settings.local.json', true)).toContain(
      '"Always Allow…" offers Edit(src/**) or Edit(src/a.ts), for permissions.allow in .claude/settings.local.json or for this session.',
    );
  });

  it('the rule picker offers the folder first, saved or for the session; without a settings file only the session', () => {
    expect(permissionRulePicks('Edit(src/a.ts)', '.claude/settings.local.json').map((p) => [p.label, p.scope])).toEqual([
      ['Always allow Edit(src/**)', 'always'],
      ['Always allow Edit(src/a.ts)', 'always'],
      ['Allow Edit(src/**) for this session', 'session'],
      ['Allow Edit(src/a.ts) for this session', 'session'],
    ]);
    expect(permissionRulePicks('Edit(src/a.ts)', undefined).map((p) => p.scope)).toEqual(['session', 'session']);
    expect(permissionRulePicks('Edit(src/a.ts)', 'x.json')[0]?.description).toBe('every file under src/; saved to x.json');
  });
});

describe('addAllowRule', () => {
  it('creates the file content when empty', () => {
    expect(JSON.parse(addAllowRule('', 'Bash(npm test:*)'))).toEqual({ permissions: { allow: ['Bash(npm test:*)'] } });
  });

  it('appends to an existing list, keeping comments, and is idempotent', () => {
    const text = '{\n    // mine\n    "permissions": {\n        "allow": ["Read"] // reads are fine\n    }\n}\n';
    const out = addAllowRule(text, 'Bash(npm test:*)');
    expect(out).toContain('// mine');
    expect(out).toContain('// reads are fine');
    expect(out).toMatch(/"Read",\s*"Bash\(npm test:\*\)"/);
    expect(addAllowRule(out, 'Bash(npm test:*)')).toBe(out);
  });

  it('adds permissions to a file that has none, and refuses non-objects', () => {
    const out = addAllowRule('{ "hooks": {} }', 'Edit');
    expect(JSON.parse(out)).toEqual({ hooks: {}, permissions: { allow: ['Edit'] } });
    expect(() => addAllowRule('[1]', 'Edit')).toThrow(AllowRuleEditError);
    try {
      addAllowRule('{ "permissions": { "allow": "Edit" } }', 'Edit');
    } catch (error) {
      expect(AllowRuleEditError.is(error, 'notAnArray')).toBe(true);
    }
  });
});

describe('proposed change', () => {
  it('computes Write and Edit results', () => {
    expect(proposedContent('Write', { file_path: 'a', content: 'new' }, 'old')).toBe('new');
    expect(proposedContent('Edit', { file_path: 'a', old_string: 'b', new_string: 'B' }, 'abcb')).toBe('aBcb');
    expect(proposedContent('Edit', { file_path: 'a', old_string: 'b', new_string: '$&$&', replace_all: true }, 'abcb')).toBe('a$&$&c$&$&');
    expect(proposedContent('Edit', { file_path: 'a', old_string: '', new_string: 'hi' }, undefined)).toBe('hi');
    expect(proposedContent('Edit', { file_path: 'a', old_string: 'zz', new_string: 'y' }, 'abc')).toBeUndefined();
    expect(proposedContent('Bash', { command: 'x' }, 'abc')).toBeUndefined();
    expect(proposedFile('Edit', { file_path: 'src/a.ts' })).toBe('src/a.ts');
    expect(proposedFile('Bash', { file_path: 'src/a.ts' })).toBeUndefined();
  });
});

describe('SerialQueue', () => {
  const deferred = <T>() => {
    let resolve!: (v: T) => void;
    const promise = new Promise<T>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('runs one task at a time in order and reports busy', async () => {
    const busy: boolean[] = [];
    const queue = new SerialQueue((b) => busy.push(b));
    const started: string[] = [];
    const a = deferred<string>();
    const b = deferred<string>();
    const pa = queue.run(
      new AbortController().signal,
      () => (started.push('a'), a.promise),
      () => 'aborted',
    );
    const pb = queue.run(
      new AbortController().signal,
      () => (started.push('b'), b.promise),
      () => 'aborted',
    );
    expect(started).toEqual(['a']);
    expect(queue.size).toBe(2);
    a.resolve('A');
    expect(await pa).toBe('A');
    expect(started).toEqual(['a', 'b']);
    b.resolve('B');
    expect(await pb).toBe('B');
    expect(busy).toEqual([true, false]);
    expect(queue.busy).toBe(false);
  });

  it('drops a waiting task whose signal aborts, and settles it with the fallback', async () => {
    const busy: boolean[] = [];
    const queue = new SerialQueue((b) => busy.push(b));
    const a = deferred<string>();
    let bStarted = false;
    const pa = queue.run(
      new AbortController().signal,
      () => a.promise,
      () => 'aborted',
    );
    const abort = new AbortController();
    const pb = queue.run(
      abort.signal,
      async () => ((bStarted = true), 'B'),
      () => 'aborted',
    );
    abort.abort();
    expect(await pb).toBe('aborted');
    a.resolve('A');
    expect(await pa).toBe('A');
    expect(bStarted).toBe(false);
    expect(busy).toEqual([true, false]);
    const pre = new AbortController();
    pre.abort();
    expect(
      await queue.run(
        pre.signal,
        async () => 'ran',
        () => 'aborted',
      ),
    ).toBe('aborted');
  });
});
