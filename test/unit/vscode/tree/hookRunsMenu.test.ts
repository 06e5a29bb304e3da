/**
 * The Hook Runs context menu as package.json declares it: a run row offers Disable Hook or
 * Enable Hook by its hook's switch, never both, and keeps its other entries in every state.
 * The `when` clauses are read from the manifest and evaluated the way VS Code does for the
 * forms they use (`==`, `=~ /regex/`, `&&`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runContextValue, runSwitchState } from '../../../../src/vscode/tree/hookRunSwitch';
import type { HookSource } from '../../../../src/configFiles/hookSource';

interface MenuEntry {
  readonly command: string;
  readonly when?: string;
}

const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: { menus: Record<string, MenuEntry[]> };
};

/** Evaluates a when clause made of `key == value`, `key =~ /re/flags` and `key` joined by `&&`. */
function holds(when: string, context: Readonly<Record<string, string>>): boolean {
  return when.split('&&').every((part) => {
    const term = part.trim();
    const regex = /^(\S+)\s*=~\s*\/(.*)\/([a-z]*)$/.exec(term);
    if (regex) return new RegExp(regex[2] ?? '', regex[3]).test(context[regex[1] ?? ''] ?? '');
    const equal = /^(\S+)\s*==\s*(\S+)$/.exec(term);
    if (equal) return context[equal[1] ?? ''] === equal[2];
    throw new Error(`unsupported when clause: ${term}`);
  });
}

/** The commands the Hook Runs context menu shows on a row with this context value. */
function menuFor(viewItem: string): string[] {
  return manifest.contributes.menus['view/item/context']!.filter((e) => holds(e.when ?? 'true', { view: 'hookwise.hookRuns', viewItem })).map((e) => e.command);
}

const DISABLE = 'hookwise.hooks.disableHook';
const ENABLE = 'hookwise.hooks.enableHook';
const RUN_ENTRIES = [
  'hookwise.hookRuns.rerun',
  'hookwise.hookRuns.goToDefinition',
  'hookwise.hookRuns.copyInput',
  'hookwise.hookRuns.saveAsTestCase',
  'hookwise.hooks.whyTheseHooks',
  'hookwise.hooks.explain',
];

const projectHook: HookSource = {
  kind: 'file',
  scope: 'project',
  file: '/ws/.claude/settings.json',
  displayFile: '.claude/settings.json',
  jsonPath: 'hooks.PreToolUse[0].hooks[0]',
  switchId: '.claude/settings.json › PreToolUse › Bash › command:./check.sh #0123abcd',
};

describe('Hook Runs context menu', () => {
  it('a run of a hook that is on offers Disable Hook and not Enable Hook', () => {
    const menu = menuFor(runContextValue(runSwitchState(projectHook, new Set())));
    expect(menu).toContain(DISABLE);
    expect(menu).not.toContain(ENABLE);
    expect(menu).toEqual(expect.arrayContaining(RUN_ENTRIES));
  });

  it('a run of a hook switched off offers Enable Hook and not Disable Hook', () => {
    const menu = menuFor(runContextValue(runSwitchState(projectHook, new Set([projectHook.kind === 'file' ? projectHook.switchId! : '']))));
    expect(menu).toContain(ENABLE);
    expect(menu).not.toContain(DISABLE);
    expect(menu).toEqual(expect.arrayContaining(RUN_ENTRIES));
  });

  it('a managed policy hook, a hook registered by code and a run that does not name its hook offer neither', () => {
    const managed: HookSource = { ...projectHook, scope: 'managed' } as HookSource;
    const code: HookSource = { kind: 'code', label: 'built-in guard' } as HookSource;
    const unnamed = { ...projectHook, switchId: undefined } as HookSource;
    for (const source of [managed, code, unnamed]) {
      const menu = menuFor(runContextValue(runSwitchState(source, new Set())));
      expect(menu).not.toContain(DISABLE);
      expect(menu).not.toContain(ENABLE);
      expect(menu).toEqual(expect.arrayContaining(RUN_ENTRIES));
    }
  });

  it('another extension’s API hooks switch by the extension: Disable, then Enable', () => {
    const api: HookSource = { kind: 'code', label: 'extension acme.guard' } as HookSource;
    expect(menuFor(runContextValue(runSwitchState(api, new Set())))).toContain(DISABLE);
    expect(menuFor(runContextValue(runSwitchState(api, new Set(['extension acme.guard']))))).toContain(ENABLE);
  });

  it('an event row keeps Why These Hooks?, Explain and Save as Test Case, and has no switch', () => {
    const menu = menuFor('hookRunOccurrence');
    expect(menu).toEqual(expect.arrayContaining(['hookwise.hooks.whyTheseHooks', 'hookwise.hooks.explain', 'hookwise.hookRuns.saveAsTestCase']));
    expect(menu).not.toContain(DISABLE);
    expect(menu).not.toContain(ENABLE);
  });
});
