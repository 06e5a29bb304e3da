import * as path from 'node:path';
import { isProjectSource } from '../../configFiles/hookSource';
import type { LoadedHook } from '../../hooks/config/loadedHook';
import type { HookConfigChange } from './hookConfigService';

/** Whether the workspace's project hooks run, and if not, why. */
export type ProjectHooksState =
  | { readonly on: true; readonly count: number }
  /** `untrusted`: Restricted Mode; `unapproved`: trusted, but `count` hooks wait for approval; `none`: none is loaded. */
  | { readonly on: false; readonly why: 'untrusted' | 'unapproved' | 'none'; readonly count: number; readonly files: readonly string[] };

/**
 * The project hooks of the generation in force: on when at least one is loaded and none is held;
 * held ones name why (untrusted wins over unapproved). `trusted` is Workspace Trust now.
 */
export function projectHooksState(change: HookConfigChange | undefined, trusted: boolean): ProjectHooksState {
  const held = change?.applied.held.filter((h) => isProjectSource(h.hook.source)) ?? [];
  const files = sourceFiles(held.map((h) => h.hook));
  if (!trusted) return { on: false, why: 'untrusted', count: held.length, files };
  const waiting = held.filter((h) => h.why === 'unapproved');
  if (waiting.length > 0) return { on: false, why: 'unapproved', count: waiting.length, files: sourceFiles(waiting.map((h) => h.hook)) };
  const active = change?.applied.active.filter((h) => isProjectSource(h.source)).length ?? 0;
  return active > 0 ? { on: true, count: active } : { on: false, why: 'none', count: 0, files: [] };
}

/** The chat's Restricted Mode notice: what is off, why, and what Trust does. */
export function restrictedModeText(state: ProjectHooksState): string {
  const hooks =
    state.count === 0
      ? 'project hooks would not run'
      : `its ${state.count} project hook${state.count === 1 ? '' : 's'}${filesText(state)} ${state.count === 1 ? 'is' : 'are'} off`;
  return `Restricted Mode: this folder is not trusted, so ${hooks} and Hookwise asks before every tool call. Trust… lists them: one answer allows them, then Workspace Trust turns them on.`;
}

/**
 * What a playground script that `requiresProjectHooks` answers while they are off (instead of
 * claiming a hook decided), or undefined when they are on.
 */
export function tourHeldText(state: ProjectHooksState): string | undefined {
  if (state.on) return undefined;
  const why =
    state.why === 'untrusted'
      ? 'this folder is not trusted (Restricted Mode), so they are off. Press **Trust** in the chat\'s notice, or run "Hookwise: Trust Folder and Allow Its Hooks…"'
      : state.why === 'unapproved'
        ? `${state.count} of them ${state.count === 1 ? 'waits' : 'wait'} for your approval, so ${state.count === 1 ? 'it is' : 'they are'} off. Run "Hookwise: Review Project Hooks" and allow them`
        : 'none is in force in this workspace. Open the folder that has them (examples/demo-workspace), trusted, and allow them';
  return `This tour shows what this workspace's project hooks decide, and ${why}. Then send any prompt to start the tour.`;
}

/** " (.claude/settings.json)": the distinct settings files, by base folder and name. */
function filesText(state: ProjectHooksState): string {
  if (state.on || state.files.length === 0) return '';
  return ` (${state.files.join(', ')})`;
}

function sourceFiles(hooks: readonly LoadedHook[]): string[] {
  const files = hooks.flatMap((h) => (h.source.kind === 'file' ? [path.join(path.basename(path.dirname(h.source.file)), path.basename(h.source.file))] : []));
  return [...new Set(files)];
}
