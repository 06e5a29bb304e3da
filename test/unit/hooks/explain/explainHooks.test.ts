import { describe, expect, it } from 'vitest';
import type { HookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import type { LoadedHook } from '../../../../src/hooks/config/loadedHook';
import { explainHooks } from '../../../../src/hooks/explain/explainHooks';

// "Why didn't my hook fire?": each configured hook of the event with the reason it would or
// would not run — trust, approval, folder, agent scope, matcher, disableAllHooks.

function hook(over: Partial<LoadedHook> & { jsonPath: string; scope?: 'user' | 'project' }): LoadedHook {
  const { jsonPath, scope = 'project', ...rest } = over;
  return {
    event: 'PreToolUse',
    handler: { type: 'command', command: `echo ${jsonPath}` },
    source: {
      kind: 'file',
      scope,
      file: `/p/.claude/settings.json`,
      displayFile: scope === 'user' ? '~/.claude/settings.json' : '.claude/settings.json',
      jsonPath,
    },
    hash: jsonPath,
    ...rest,
  } as LoadedHook;
}

function config(hooks: LoadedHook[], over: Partial<HookConfig> = {}): HookConfig {
  return { hooks, diagnostics: [], disabled: false, disabledBy: [], permissions: { rules: [] } as never, duplicates: [], ...over };
}

const bash = { tool_name: 'Bash', tool_input: { command: 'ls' } };

describe('explainHooks', () => {
  it('names the reason a project hook is held: untrusted workspace, or not approved', () => {
    const hooks = [hook({ jsonPath: 'a', matcher: 'Bash' }), hook({ jsonPath: 'u', matcher: 'Bash', scope: 'user' })];
    const untrusted = explainHooks(config(hooks), { event: 'PreToolUse', input: bash, cwd: '/p', trust: { trusted: false } });
    expect(untrusted.map((r) => [r.command, r.outcome, r.reason])).toEqual([
      ['echo a', 'skipped', 'a project hook, and this workspace is not trusted'],
      ['echo u', 'would run', 'matcher `Bash` matches tool_name `Bash`'],
    ]);
    const unapproved = explainHooks(config(hooks), { event: 'PreToolUse', input: bash, cwd: '/p', trust: { trusted: true, isApproved: () => false } });
    expect(unapproved[0]?.reason).toMatch(/not approved/);
  });

  it('agent-scoped and other-folder hooks are skipped with where they apply; a broken matcher says so', () => {
    const hooks = [hook({ jsonPath: 'agent', agentType: 'reviewer' }), hook({ jsonPath: 'folder', folder: '/other' }), hook({ jsonPath: 'bad', matcher: '(' })];
    const rows = explainHooks(config(hooks), { event: 'PreToolUse', input: bash, cwd: '/p', trust: { trusted: true } });
    expect(rows.map((r) => r.reason)).toEqual([
      'scoped to the reviewer agent; this occurrence is in the main agent',
      'belongs to the workspace folder /other, not /p',
      expect.stringMatching(/^is off: /),
    ]);
    const inAgent = explainHooks(config(hooks), { event: 'PreToolUse', input: bash, cwd: '/p', trust: { trusted: true }, agentType: 'reviewer' });
    expect(inAgent[0]?.outcome).toBe('would run');
  });

  it('Task still selects the Agent tool (its old name), and disableAllHooks skips everything naming who set it', () => {
    const rows = explainHooks(config([hook({ jsonPath: 't', matcher: 'Task' })]), {
      event: 'PreToolUse',
      input: { tool_name: 'Agent' },
      cwd: '/p',
      trust: { trusted: true },
    });
    expect(rows[0]?.outcome).toBe('would run');
    const off = explainHooks(config([], { disabled: true, disabledBy: ['.claude/settings.local.json'] }), {
      event: 'PreToolUse',
      input: bash,
      cwd: '/p',
      trust: { trusted: true },
    });
    expect(off).toEqual([expect.objectContaining({ outcome: 'skipped', reason: 'hooks are turned off by .claude/settings.local.json' })]);
  });

  it('a handler whose `if` is false for the call is skipped, naming the condition; when true it would run', () => {
    const guarded = hook({ jsonPath: 'g', matcher: 'Bash', handler: { type: 'command', command: 'guard', if: 'Bash(git push:*)' } as LoadedHook['handler'] });
    const ls = explainHooks(config([guarded]), { event: 'PreToolUse', input: bash, cwd: '/p', trust: { trusted: true } });
    expect(ls[0]).toMatchObject({ outcome: 'skipped', reason: '`if` `Bash(git push:*)` is false for this tool call' });
    const push = { tool_name: 'Bash', tool_input: { command: 'git push origin main' } };
    expect(explainHooks(config([guarded]), { event: 'PreToolUse', input: push, cwd: '/p', trust: { trusted: true } })[0]?.outcome).toBe('would run');
  });

  it('a `once` hook: "not yet run" without a session; skipped once it ran earlier in the session; listed as ran in the occurrence it ran in', () => {
    const once = hook({
      jsonPath: 'o',
      matcher: 'Bash',
      agentType: 'helper',
      handler: { type: 'command', command: 'first', once: true } as LoadedHook['handler'],
    });
    const q = { event: 'PreToolUse' as const, input: bash, cwd: '/p', trust: { trusted: true }, agentType: 'helper' };
    expect(explainHooks(config([once]), q)[0]).toMatchObject({ outcome: 'would run', reason: 'matcher `Bash` matches tool_name `Bash` (once: not yet run)' });
    const earlier = { source: once.source, event: 'PreToolUse' as const };
    const spent = explainHooks(config([once]), { ...q, session: { ran: [], before: [earlier] } });
    expect(spent[0]).toMatchObject({ outcome: 'skipped', reason: 'once: it already ran in this session' });
    const ran = { source: once.source, status: 'ok' as const, outcome: {}, hookLabel: 'first', actionKind: 'command' as const };
    expect(explainHooks(config([once]), { ...q, session: { ran: [ran], before: [] } })[0]).toMatchObject({ outcome: 'ran', reason: 'ran: no decision (ok)' });
    // An earlier run of another event does not spend it.
    const other = explainHooks(config([once]), { ...q, session: { ran: [], before: [{ ...earlier, event: 'PostToolUse' }] } });
    expect(other[0]?.outcome).toBe('would run');
  });

  it('a skill-scoped hook is skipped until its skill is loaded in the session', () => {
    const skillHook = hook({ jsonPath: 's', matcher: 'Bash', skill: 'deploy' });
    const q = { event: 'PreToolUse' as const, input: bash, cwd: '/p', trust: { trusted: true } };
    expect(explainHooks(config([skillHook]), q)[0]).toMatchObject({
      outcome: 'skipped',
      reason: 'scoped to the deploy skill, which runs only in a session that loaded it',
    });
    const notLoaded = explainHooks(config([skillHook]), { ...q, session: { ran: [], before: [], skills: new Set(['lint']) } });
    expect(notLoaded[0]).toMatchObject({ outcome: 'skipped', reason: 'scoped to the deploy skill, which this session has not loaded' });
    expect(explainHooks(config([skillHook]), { ...q, session: { ran: [], before: [], skills: new Set(['deploy']) } })[0]?.outcome).toBe('would run');
  });

  it('a ran hook shows its decision and reason; a run no configured hook accounts for is listed too', () => {
    const deny = hook({ jsonPath: 'd', matcher: 'Bash' });
    const run = {
      source: deny.source,
      status: 'blocked' as const,
      outcome: { decision: 'deny' as const, reason: 'no rm' },
      hookLabel: 'echo d',
      actionKind: 'command' as const,
    };
    const api = {
      source: { kind: 'code' as const, label: 'my.ext' },
      status: 'ok' as const,
      outcome: { decision: 'allow' as const },
      hookLabel: 'api hook',
      actionKind: 'callable' as const,
    };
    const rows = explainHooks(config([deny]), {
      event: 'PreToolUse',
      input: bash,
      cwd: '/p',
      trust: { trusted: true },
      session: { ran: [run, api] as never, before: [] },
    });
    expect(rows.map((r) => [r.outcome, r.reason])).toEqual([
      ['ran', 'ran: deny — no rm'],
      ['ran', 'ran: allow'],
    ]);
  });

  it('hooks the managed policy keeps out (allowManagedHooksOnly) are listed as skipped, naming the policy file', () => {
    const user = hook({ jsonPath: 'u', matcher: 'Bash', scope: 'user' });
    const rows = explainHooks(config([], { managedOnly: { file: '/etc/claude-code/managed-settings.json', hooks: [user] } }), {
      event: 'PreToolUse',
      input: bash,
      cwd: '/p',
      trust: { trusted: true },
    });
    expect(rows).toEqual([
      expect.objectContaining({
        command: 'echo u',
        outcome: 'skipped',
        reason: 'managed-only policy: /etc/claude-code/managed-settings.json allows only its own hooks (allowManagedHooksOnly)',
      }),
    ]);
  });
});
