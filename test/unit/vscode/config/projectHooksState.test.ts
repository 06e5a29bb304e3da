import { describe, expect, it } from 'vitest';
import type { LoadedHook } from '../../../../src/hooks/config/loadedHook';
import type { HookConfigChange } from '../../../../src/vscode/config/hookConfigService';
import { projectHooksState, restrictedModeText, tourHeldText } from '../../../../src/vscode/config/projectHooksState';

/** A hook from `.claude/settings.json` (project) or `~/.claude/settings.json` (user). */
function hook(scope: 'project' | 'user', n: number): LoadedHook {
  const file = scope === 'project' ? '/ws/.claude/settings.json' : '/home/me/.claude/settings.json';
  return {
    source: { kind: 'file', scope, file, displayFile: file, jsonPath: `hooks.PreToolUse[${n}].hooks[0]` },
    hash: `${scope}${n}`,
  } as unknown as LoadedHook;
}

function change(active: LoadedHook[], held: { hook: LoadedHook; why: 'untrusted' | 'unapproved' }[]): HookConfigChange {
  return { config: { hooks: [...active, ...held.map((h) => h.hook)] }, applied: { active, held } } as unknown as HookConfigChange;
}

describe('project hooks state', () => {
  it('untrusted: off, counting the held project hooks and naming their file; the notice and the tour say why', () => {
    const state = projectHooksState(
      change(
        [hook('user', 0)],
        [0, 1].map((n) => ({ hook: hook('project', n), why: 'untrusted' as const })),
      ),
      false,
    );
    expect(state).toEqual({ on: false, why: 'untrusted', count: 2, files: ['.claude/settings.json'] });
    expect(restrictedModeText(state)).toBe(
      'Restricted Mode: this folder is not trusted, so its 2 project hooks (.claude/settings.json) are off and Hookwise asks before every tool call. Trust… lists them: one answer allows them, then Workspace Trust turns them on.',
    );
    expect(tourHeldText(state)).toMatch(
      /^This tour shows what this workspace's project hooks decide, and this folder is not trusted \(Restricted Mode\), so they are off\. Press \*\*Trust\*\*/,
    );
  });

  it('trusted with hooks waiting for approval: off; with every project hook active: on, and the tour plays', () => {
    const waiting = projectHooksState(change([hook('project', 0)], [{ hook: hook('project', 1), why: 'unapproved' }]), true);
    expect(waiting).toEqual({ on: false, why: 'unapproved', count: 1, files: ['.claude/settings.json'] });
    expect(tourHeldText(waiting)).toContain('Run "Hookwise: Review Project Hooks"');
    const on = projectHooksState(change([hook('project', 0), hook('user', 1)], []), true);
    expect(on).toEqual({ on: true, count: 1 });
    expect(tourHeldText(on)).toBeUndefined();
  });

  it('no project hook in force at all: the tour does not pretend one decided', () => {
    const none = projectHooksState(change([hook('user', 0)], []), true);
    expect(none).toEqual({ on: false, why: 'none', count: 0, files: [] });
    expect(tourHeldText(none)).toContain('none is in force in this workspace');
    expect(restrictedModeText(projectHooksState(undefined, false))).toContain('project hooks would not run');
  });
});
