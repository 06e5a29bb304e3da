import { describe, expect, it } from 'vitest';
import { approvedHashesAfter, diffApprovals, hookApprovalKey } from '../../../src/hooks/config/hookApproval';
import { buildHookConfig } from '../../../src/hooks/config/hookConfigLoader';

const projectFile = (command: string, extra: Record<string, unknown> = {}) => ({
  input: { kind: 'claudeSettingsFile' as const, scope: 'project' as const, file: '/ws/.claude/settings.json', displayFile: '.claude/settings.json', folder: '/ws' },
  text: JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, ...extra }] }] } }),
});
const userSettings = { input: { kind: 'settingsValue' as const, scope: 'user' as const, value: { Stop: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } } };

describe('hookApprovalKey', () => {
  const base = { event: 'PreToolUse' as const, matcher: 'Bash', handler: { type: 'command' as const, command: 'echo a' } };

  it('is a sha256 of what the hook does', () => {
    expect(hookApprovalKey(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(hookApprovalKey({ ...base, handler: { ...base.handler, timeout: 5, statusMessage: 'x' } })).toBe(hookApprovalKey(base));
  });

  it('changes with event, matcher, type, command/prompt and model', () => {
    const keys = new Set([
      hookApprovalKey(base),
      hookApprovalKey({ ...base, event: 'PostToolUse' }),
      hookApprovalKey({ ...base, matcher: 'Edit' }),
      hookApprovalKey({ ...base, handler: { type: 'command', command: 'echo b' } }),
      hookApprovalKey({ ...base, handler: { type: 'prompt', prompt: 'echo a' } }),
      hookApprovalKey({ ...base, handler: { type: 'prompt', prompt: 'echo a', model: 'm' } }),
    ]);
    expect(keys.size).toBe(6);
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
    // A timeout change is not a behaviour change.
    expect(diffApprovals(buildHookConfig([userSettings, projectFile('echo project', { timeout: 9 })]).hooks, approved).newOrChanged).toEqual([]);
  });

  it('workspace settings and project agent files are project sources; ~/.claude/agents are not', () => {
    const { hooks } = buildHookConfig([
      { input: { kind: 'settingsValue', scope: 'workspace', value: { Stop: [{ hooks: [{ type: 'command', command: 'ws' }] }] } } },
      { input: { kind: 'agentFile', scope: 'project', file: '/ws/.claude/agents/a.md', displayFile: '.claude/agents/a.md' }, text: '---\nname: a\nhooks:\n  Stop: [{hooks: [{type: command, command: pa}]}]\n---\n' },
      { input: { kind: 'agentFile', scope: 'user', file: '/h/.claude/agents/b.md', displayFile: '~/.claude/agents/b.md' }, text: '---\nname: b\nhooks:\n  Stop: [{hooks: [{type: command, command: ua}]}]\n---\n' },
    ]);
    const diff = diffApprovals(hooks, new Set());
    expect(diff.newOrChanged.map((h) => (h.handler.type === 'command' ? h.handler.command : ''))).toEqual(['ws', 'pa']);
    expect(diff.approved.map((h) => h.agentType)).toEqual(['b']);
  });
});
