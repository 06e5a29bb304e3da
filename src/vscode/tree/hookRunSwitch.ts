import { canSwitchOff, hookSwitchId } from '../../hooks/config/hookSwitches';
import type { HookSource } from '../../configFiles/hookSource';
import { isExtensionApiSource } from '../extensionApiHooks';

/** Whether a run's hook is on or off now; undefined when it has no switch this menu can use. */
export type RunSwitchState = 'enabled' | 'disabled' | undefined;

/**
 * The switch state of the hook a run came from, against the switches the loader applied
 * (`disabled`): undefined for hooks registered by code (other than another extension's API hooks),
 * managed policy hooks (they cannot be switched off) and runs of an older version that do not
 * say which hook they were (their position may name another hook now).
 */
export function runSwitchState(source: HookSource, disabled: ReadonlySet<string> | undefined): RunSwitchState {
  if (source.kind === 'code' && !isExtensionApiSource(source)) return undefined;
  if (!canSwitchOff({ source })) return undefined;
  if (source.kind !== 'code' && source.switchId === undefined) return undefined;
  return disabled?.has(hookSwitchId({ source })) === true ? 'disabled' : 'enabled';
}

/**
 * The context value of a run row: `hookRun`, or `hookRun.enabled` / `hookRun.disabled` when its
 * hook has a switch. package.json's menus read it, so the row offers Disable or Enable, never both.
 */
export function runContextValue(state: RunSwitchState): string {
  return state === undefined ? 'hookRun' : `hookRun.${state}`;
}
