import { describe, expect, it } from 'vitest';
import { splitHookSwitchLayers, type HookSwitchKey, type SettingLayers } from '../../../src/settings/hookSwitchLayers';
import { HOOK_SOURCE_KEYS } from '../../../src/hooks/config/hookSourceKeys';

const DEFAULTS: Record<HookSwitchKey, unknown> = {
  'hookwise.hooks.enabled': true,
  'hookwise.hooks.sources': [...HOOK_SOURCE_KEYS],
  'hookwise.hooks.disabled': [],
};

/** What VS Code's inspect/get would report with these layer values and no policy. */
function layers(values: Partial<Record<HookSwitchKey, { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }>>) {
  return (key: HookSwitchKey): SettingLayers => {
    const v = values[key] ?? {};
    const inspected = { defaultValue: DEFAULTS[key], ...v };
    return { inspected, effective: v.workspaceFolderValue ?? v.workspaceValue ?? v.globalValue ?? DEFAULTS[key] };
  };
}

describe('splitHookSwitchLayers', () => {
  it('keeps the user level apart from the workspace level instead of letting the workspace replace it', () => {
    const split = splitHookSwitchLayers(
      layers({
        'hookwise.hooks.enabled': { globalValue: true, workspaceValue: false },
        'hookwise.hooks.sources': { workspaceValue: ['project'] },
        'hookwise.hooks.disabled': { globalValue: ['a'], workspaceValue: ['b'] },
      }),
      '/ws/.vscode/settings.json',
    );
    expect(split).toEqual({
      enabled: true,
      sources: [...HOOK_SOURCE_KEYS],
      disabledHooks: ['a'],
      workspace: { enabled: false, sources: ['project'], disabledHooks: ['b'], file: '/ws/.vscode/settings.json' },
      problems: [],
    });
  });

  it('workspace and folder values combine so that each only narrows', () => {
    const split = splitHookSwitchLayers(
      layers({
        'hookwise.hooks.enabled': { workspaceValue: true, workspaceFolderValue: false },
        'hookwise.hooks.sources': { workspaceValue: ['project', 'local'], workspaceFolderValue: ['local', 'agents'] },
        'hookwise.hooks.disabled': { workspaceValue: ['x'], workspaceFolderValue: ['y', 'x'] },
      }),
    );
    expect(split.workspace).toEqual({ enabled: false, sources: ['local'], disabledHooks: ['x', 'y'] });
  });

  it('a VS Code policy value is the user level and the workspace value is dropped, as VS Code drops it', () => {
    const split = splitHookSwitchLayers((key) =>
      key === 'hookwise.hooks.enabled'
        ? { inspected: { defaultValue: true, globalValue: false, workspaceValue: false }, effective: true }
        : { inspected: { defaultValue: DEFAULTS[key] }, effective: DEFAULTS[key] },
    );
    expect(split.enabled).toBe(true);
    expect(split.workspace).toBeUndefined();
  });

  it('a value of the wrong type is ignored and reported', () => {
    const split = splitHookSwitchLayers(
      layers({ 'hookwise.hooks.enabled': { globalValue: 'no', workspaceValue: 0 }, 'hookwise.hooks.sources': { workspaceValue: ['nope'] } }),
    );
    expect(split.enabled).toBe(true);
    expect(split.workspace).toBeUndefined();
    expect(split.problems).toHaveLength(3);
  });
});
