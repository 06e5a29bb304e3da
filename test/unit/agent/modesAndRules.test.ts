import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigPermissionRules } from '../../../src/permissions/configPermissionRules';
import type { PermissionRuleEntry } from '../../../src/permissions/permissionRules';
import { parsePermissionRule } from '../../../src/permissions/permissionRules';
import { allow, ask, block, modifyInput } from '../../../src/hooks/hookOutcome';
import type { AgentHarness } from './agentHarness';
import { bash, makeAgentHarness, RecordingProvider, recordEvents } from './agentHarness';

let h: AgentHarness;
beforeEach(async () => {
  h = await makeAgentHarness();
});
afterEach(async () => {
  await h.cleanup();
});

function rules(list: Record<'allow' | 'deny' | 'ask', string[]>): ConfigPermissionRules {
  const entries: PermissionRuleEntry[] = [];
  for (const behavior of ['allow', 'deny', 'ask'] as const) {
    for (const text of list[behavior]) {
      const parsed = parsePermissionRule(text);
      if (!parsed.ok) throw new Error(parsed.message);
      entries.push({ behavior, rule: parsed.rule, source: { kind: 'code', label: 'test rules' } });
    }
  }
  return new ConfigPermissionRules(entries, { projectRoot: h.dir });
}

const touch = (name: string): string => `touch ${name}`;
const ran = (name: string): boolean => existsSync(path.join(h.dir, name));

describe('permission modes', () => {
  it('default mode asks for Bash with kind "rule" and a suggested rule, and runs it when allowed', async () => {
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider, rules: rules({ allow: [], deny: [], ask: [] }) });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]).toMatchObject({ kind: 'rule', toolName: 'Bash', toolInput: { command: touch('a.txt') } });
    expect(provider.requests[0]?.suggestedRule).toBe('Bash(touch:*)');
    expect(ran('a.txt')).toBe(true);
  });

  it('default mode: the user denying the ask keeps the command from running and tells the model', async () => {
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    const { model } = await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider });
    expect(ran('a.txt')).toBe(false);
    expect(model.toolResultsOf(1)[0]).toMatchObject({ isError: true, content: 'The user denied Bash.' });
  });

  it('fires a permission_prompt Notification before asking the person', async () => {
    const notes: string[] = [];
    h.hooks.onNotification((ctx) => void notes.push(ctx.notification_type));
    await h.run([bash('true'), { text: 'ok' }], { provider: new RecordingProvider() });
    expect(notes).toEqual(['permission_prompt']);
  });

  it('Read runs without asking in default mode', async () => {
    writeFileSync(path.join(h.dir, 'r.txt'), 'readable');
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    const { model } = await h.run([{ toolCalls: [{ name: 'Read', input: { file_path: 'r.txt' } }] }, { text: 'ok' }], { provider });
    expect(provider.requests).toEqual([]);
    expect(model.toolResultsOf(1)[0]?.content).toContain('readable');
  });

  it('plan mode denies Write without asking', async () => {
    const provider = new RecordingProvider();
    const { model } = await h.run([{ toolCalls: [{ name: 'Write', input: { file_path: 'w.txt', content: 'x' } }] }, { text: 'ok' }], {
      mode: 'plan',
      provider,
    });
    expect(provider.requests).toEqual([]);
    expect(ran('w.txt')).toBe(false);
    expect(model.toolResultsOf(1)[0]).toMatchObject({ isError: true, content: expect.stringContaining('plan mode') });
  });

  it('acceptEdits mode runs Edit without asking', async () => {
    writeFileSync(path.join(h.dir, 'e.txt'), 'hello world');
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    await h.run([{ toolCalls: [{ name: 'Edit', input: { file_path: 'e.txt', old_string: 'world', new_string: 'hooks' } }] }, { text: 'ok' }], {
      mode: 'acceptEdits',
      provider,
    });
    expect(provider.requests).toEqual([]);
    expect(readFileSync(path.join(h.dir, 'e.txt'), 'utf8')).toBe('hello hooks');
  });

  it('acceptEdits mode still asks for Bash', async () => {
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { mode: 'acceptEdits', provider });
    expect(provider.requests).toHaveLength(1);
    expect(ran('a.txt')).toBe(false);
  });

  it('bypassPermissions mode runs Bash without asking', async () => {
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { mode: 'bypassPermissions', provider });
    expect(provider.requests).toEqual([]);
    expect(ran('a.txt')).toBe(true);
  });

  it('with no provider an ask becomes the askFallback (deny), and the model is told it was headless; no PostToolUseFailure fires for it', async () => {
    const failures = recordEvents(h.hooks, ['PostToolUseFailure']);
    const { model } = await h.run([bash(touch('a.txt')), { text: 'ok' }]);
    expect(ran('a.txt')).toBe(false);
    expect(model.toolResultsOf(1)[0]?.content).toContain('askFallback is deny');
    expect(failures).toEqual([]);
  });

  it('askFallback allow runs the call when nobody can answer', async () => {
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { askFallback: 'allow' });
    expect(ran('a.txt')).toBe(true);
  });
});

describe('permission rules', () => {
  it('path deny rules hold through symlinks and inside Grep and Glob results (docs/security.md)', async () => {
    mkdirSync(path.join(h.dir, 'inner'));
    mkdirSync(path.join(h.dir, 'src'));
    writeFileSync(path.join(h.dir, 'inner', 'secret.env'), 'TOKEN=hunter2');
    symlinkSync(path.join(h.dir, 'inner', 'secret.env'), path.join(h.dir, 'innocent.txt'));
    symlinkSync(path.join(h.dir, 'inner'), path.join(h.dir, 'src', 'linked'));
    const call = (id: string, name: string, input: Record<string, unknown>) => ({ id, name, input });
    const { model } = await h.run(
      [
        {
          toolCalls: [
            call('r', 'Read', { file_path: 'innocent.txt' }),
            call('e', 'Edit', { file_path: 'src/linked/secret.env', old_string: 'TOKEN', new_string: 'PWNED' }),
            call('g', 'Grep', { pattern: 'TOKEN', path: '.', output_mode: 'content' }),
            call('l', 'Glob', { pattern: '**/*.env' }),
          ],
        },
        { text: 'ok' },
      ],
      { mode: 'bypassPermissions', rules: rules({ allow: [], deny: ['Read(inner/secret.env)', 'Edit(inner/**)'], ask: [] }) },
    );
    const results = model.toolResultsOf(1);
    expect(results.map((r) => r.content).join('\n')).not.toContain('hunter2');
    expect(results[0]?.content).toContain('denied by permission rule Read(inner/secret.env)');
    expect(results[1]?.content).toContain('denied by permission rule Edit(inner/**)');
    expect(results[2]?.content).toContain('1 file(s) hidden by permission rules');
    expect(results[3]?.content).toContain('1 file(s) hidden by permission rules');
    expect(results[3]?.content).not.toContain('secret.env');
    expect(readFileSync(path.join(h.dir, 'inner', 'secret.env'), 'utf8')).toBe('TOKEN=hunter2');
  });

  it('an allow rule runs the matching command without asking', async () => {
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider, rules: rules({ allow: ['Bash(touch:*)'], deny: [], ask: [] }) });
    expect(provider.requests).toEqual([]);
    expect(ran('a.txt')).toBe(true);
  });

  it('a deny rule beats a PreToolUse hook that allows', async () => {
    h.hooks.onPreToolUse(() => allow('hook says fine'));
    const { model } = await h.run([bash(touch('a.txt')), { text: 'ok' }], {
      mode: 'bypassPermissions',
      rules: rules({ allow: [], deny: ['Bash(touch:*)'], ask: [] }),
    });
    expect(ran('a.txt')).toBe(false);
    expect(model.toolResultsOf(1)[0]?.content).toContain('denied by permission rule Bash(touch:*)');
  });

  it('a deny rule applies to the input a hook rewrote, not only to what the model sent', async () => {
    writeFileSync(path.join(h.dir, 'keep.txt'), 'precious');
    h.hooks.onPreToolUse(() => modifyInput({ command: 'rm keep.txt' }));
    const { model } = await h.run([bash(touch('a.txt')), { text: 'ok' }], {
      mode: 'bypassPermissions',
      rules: rules({ allow: [], deny: ['Bash(rm:*)'], ask: [] }),
    });
    expect(existsSync(path.join(h.dir, 'keep.txt'))).toBe(true);
    expect(model.toolResultsOf(1)[0]?.content).toContain('denied by permission rule Bash(rm:*)');
  });

  it('an allow rule for the original command does not wave through a rewritten one', async () => {
    h.hooks.onPreToolUse(() => modifyInput({ command: 'touch b.txt' }));
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    await h.run([bash('echo hi'), { text: 'ok' }], { provider, rules: rules({ allow: ['Bash(echo:*)'], deny: [], ask: [] }) });
    expect(provider.requests.map((r) => r.toolInput)).toEqual([{ command: 'touch b.txt' }]);
    expect(ran('b.txt')).toBe(false);
  });

  it('a PreToolUse allow skips the default-mode ask', async () => {
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    h.hooks.onPreToolUse(() => allow());
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider });
    expect(provider.requests).toEqual([]);
    expect(ran('a.txt')).toBe(true);
  });
});

describe("a hook's ask always reaches a person", () => {
  it('reaches the provider even in bypassPermissions mode, and the user can refuse', async () => {
    h.hooks.onPreToolUse(() => ask('this touches production'));
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    const { model } = await h.run([bash(touch('a.txt')), { text: 'ok' }], { mode: 'bypassPermissions', provider });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]).toMatchObject({ kind: 'hook', toolName: 'Bash', reason: expect.stringContaining('this touches production') });
    expect(ran('a.txt')).toBe(false);
    expect(model.toolResultsOf(1)[0]?.content).toContain('The user denied Bash');
  });

  it('reaches the provider even when an allow rule matches', async () => {
    h.hooks.onPreToolUse(() => ask('double-check'));
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider, rules: rules({ allow: ['Bash'], deny: [], ask: [] }) });
    expect(provider.requests.map((r) => r.kind)).toEqual(['hook']);
    expect(ran('a.txt')).toBe(true);
  });

  it('is never turned into an allow by askFallback-less headless runs', async () => {
    h.hooks.onPreToolUse(() => ask('needs a human'));
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(ran('a.txt')).toBe(false);
  });

  it('a deny rule settles a hook ask as deny without bothering the person', async () => {
    h.hooks.onPreToolUse(() => ask('are you sure?'));
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider, rules: rules({ allow: [], deny: ['Bash(touch:*)'], ask: [] }) });
    expect(provider.requests).toEqual([]);
    expect(ran('a.txt')).toBe(false);
  });

  it('a PermissionRequest hook may deny a hook ask (the person is not asked)', async () => {
    h.hooks.onPreToolUse(() => ask('risky'));
    h.hooks.onPermissionRequest(() => block('policy server says no'));
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    const { model } = await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider });
    expect(provider.requests).toEqual([]);
    expect(ran('a.txt')).toBe(false);
    expect(model.toolResultsOf(1)[0]?.isError).toBe(true);
  });

  it('a PermissionRequest hook may not allow a hook ask: the person is still asked', async () => {
    h.hooks.onPreToolUse(() => ask('risky'));
    h.hooks.onPermissionRequest(() => allow('auto-approve'));
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider });
    expect(provider.requests.map((r) => r.kind)).toEqual(['hook']);
    expect(ran('a.txt')).toBe(false);
  });

  it('a PermissionRequest hook may allow a rule ask (the person is not asked)', async () => {
    const seen: string[] = [];
    h.hooks.onPermissionRequest((ctx) => {
      seen.push(ctx.tool_name);
      return allow('CI approves echo');
    });
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider });
    expect(seen).toEqual(['Bash']);
    expect(provider.requests).toEqual([]);
    expect(ran('a.txt')).toBe(true);
  });

  it('a PermissionRequest hook may deny a rule ask', async () => {
    h.hooks.onPermissionRequest(() => block('not today'));
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    const { model } = await h.run([bash(touch('a.txt')), { text: 'ok' }], { provider });
    expect(provider.requests).toEqual([]);
    expect(ran('a.txt')).toBe(false);
    expect(model.toolResultsOf(1)[0]?.content).toContain('not today');
  });
});
