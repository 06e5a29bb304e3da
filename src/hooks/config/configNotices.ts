import type { HookConfig } from './hookConfigLoader';
import { brokenFileNotice } from './lastGoodConfig';

/**
 * The configuration's warnings a person must see beside the hooks (Explain, Show Effective
 * Hooks, the CLI): each broken file and which version of it is in force, and each switch in
 * `hookwise.hooks.disabled` whose hook changed or vanished.
 */
export function configWarnings(config: Pick<HookConfig, 'brokenFiles' | 'vanishedSwitches'>): string[] {
  return [
    ...(config.brokenFiles ?? []).map(brokenFileNotice),
    ...(config.vanishedSwitches ?? []).map(
      (v) =>
        `the switch "${v.id}" in ${v.layer} settings (hookwise.hooks.disabled) names no loaded hook: the hook under it changed or was removed, so it turns nothing off`,
    ),
  ];
}
