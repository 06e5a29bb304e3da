import { describe, expect, it } from 'vitest';
import { approvedHashesAfter, diffApprovals, filterByTrust, hookApprovalKey } from '../../../../src/hooks/config/hookApproval';
import { buildHookConfig } from '../../../../src/hooks/config/hookConfigLoader';

const projectFile = (command: string, extra: Record<string, unknown> = {}) => ({
  input: {
    kind: 'claudeSettingsFile' as const,
    scope: 'project' as const,
    file: '/ws/.claude/settings.json',
    displayFile: '.claude/settings.json',
    folder: '/ws',
  },
  text: JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, ...extra }] }] } }),
});
const userSettings = {
  input: { kind: 'settingsValue' as const, scope: 'user' as const, value: { Stop: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } },
};

describe('hookApprovalKey', () => {
  const base = { event: 'PreToolUse' as const, matcher: 'Bash', handler: { type: 'command' as const, command: 'echo a' } };

  it('is a sha256 of the definition, independent of key order', () => {
    expect(hookApprovalKey(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(hookApprovalKey({ handler: { command: 'echo a', type: 'command' }, matcher: 'Bash', event: 'PreToolUse' })).toBe(hookApprovalKey(base));
  });

  it('changes with every field of the definition and with the pinned scripts (docs/security.md)', () => {
    const variants = [
      base,
      { ...base, event: 'PostToolUse' as const },
      { ...base, matcher: 'Edit' },
      { ...base, agentType: 'tester' },
      { ...base, handler: { type: 'command' as const, command: 'echo b' } },
      { ...base, handler: { type: 'prompt' as const, prompt: 'echo a' } },
      { ...base, handler: { type: 'prompt' as const, prompt: 'echo a', model: 'm' } },
      { ...base, handler: { ...base.handler, timeout: 600 } },
      { ...base, handler: { ...base.handler, async: true } },
      { ...base, handler: { ...base.handler, continueOnFailure: false } },
      { ...base, handler: { ...base.handler, priority: 9 } },
      { ...base, handler: { ...base.handler, enabled: true } },
      { ...base, handler: { ...base.handler, statusMessage: 'x' } },
      { ...base, scripts: [{ path: 'x.sh', file: '/ws/x.sh', digest: 'sha256:1' }] },
      { ...base, scripts: [{ path: 'x.sh', file: '/ws/x.sh', digest: 'sha256:2' }] },
      { ...base, scripts: [{ path: 'x.sh', file: '/ws/x.sh', digest: 'sha256:2', target: '/elsewhere' }] },
    ];
    expect(new Set(variants.map(hookApprovalKey)).size).toBe(variants.length);
  });
});

describe('diffApprovals', () => {
  it('holds new project hooks; user hooks never need approval', () => {
    const { hooks } = buildHookConfig([userSettings, projectFile('echo project')]);
    const diff = diffApprovals(hooks, []);
    expect(diff.newOrChanged.map((h) => h.source)).toEqual([expect.objectContaining({ displayFile: '.claude/settings.json' })]);
    expect(diff.approved.map((h) => h.source.kind)).toEqual(['settings']);
  });

  it('a changed command is held again until re-approved', () => {
    const first = buildHookConfig([userSettings, projectFile('echo project')]).hooks;
    const approved = approvedHashesAfter([], diffApprovals(first, []).newOrChanged, first);
    expect(diffApprovals(first, approved).newOrChanged).toEqual([]);
    const changed = buildHookConfig([userSettings, projectFile('echo project --evil')]).hooks;
    expect(diffApprovals(changed, approved).newOrChanged).toHaveLength(1);
    // Every field is pinned: timeout, async, continueOnFailure, priority, a new matcher.
    for (const extra of [{ timeout: 600 }, { async: true }, { continueOnFailure: true }, { priority: 5 }]) {
      expect(
        diffApprovals(buildHookConfig([userSettings, projectFile('echo project', extra)]).hooks, approved).newOrChanged,
        JSON.stringify(extra),
      ).toHaveLength(1);
    }
  });

  it('workspace settings and project agent files are project sources; ~/.claude/agents are not', () => {
    const { hooks } = buildHookConfig([
      { input: { kind: 'settingsValue', scope: 'workspace', value: { Stop: [{ hooks: [{ type: 'command', command: 'ws' }] }] } } },
      {
        input: { kind: 'agentFile', scope: 'project', file: '/ws/.claude/agents/a.md', displayFile: '.claude/agents/a.md' },
        text: '---\nname: a\nhooks:\n  Stop: [{hooks: [{type: command, command: pa}]}]\n---\n',
      },
      {
        input: { kind: 'agentFile', scope: 'user', file: '/h/.claude/agents/b.md', displayFile: '~/.claude/agents/b.md' },
        text: '---\nname: b\nhooks:\n  Stop: [{hooks: [{type: command, command: ua}]}]\n---\n',
      },
    ]);
    const diff = diffApprovals(hooks, new Set());
    expect(diff.newOrChanged.map((h) => (h.handler.type === 'command' ? h.handler.command : ''))).toEqual(['ws', 'pa']);
    expect(diff.approved.map((h) => h.agentType)).toEqual(['b']);
  });
});

describe('filterByTrust (the one trust filter the extension and the runtime share)', () => {
  const { hooks } = buildHookConfig([userSettings, projectFile('echo project')]);
  const project = hooks.find((h) => h.source.kind !== 'settings')!;

  it('an untrusted workspace holds every project hook, approved or not; user hooks still run', () => {
    const { runnable, held } = filterByTrust(hooks, { trusted: false, isApproved: () => true });
    expect(runnable.map((h) => h.source.kind)).toEqual(['settings']);
    expect(held).toEqual([{ hook: project, why: 'untrusted' }]);
  });

  it('a trusted workspace runs approved project hooks and holds the rest as unapproved', () => {
    expect(filterByTrust(hooks, { trusted: true, isApproved: () => false }).held).toEqual([{ hook: project, why: 'unapproved' }]);
    expect(filterByTrust(hooks, { trusted: true, isApproved: (h) => h.hash === project.hash }).runnable).toEqual(hooks);
    expect(filterByTrust(hooks, { trusted: true }).held).toEqual([]);
  });
});
