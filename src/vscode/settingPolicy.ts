import * as vscode from 'vscode';
import { HOOKWISE_SETTINGS, type HookwiseSettingKey } from '../settings/hookwiseSettingsSchema';
import { policySetValue, SETTING_POLICIES } from '../settings/settingPolicies';

/** A `hookwise.*` setting whose value an organisation's VS Code policy sets. */
export interface PolicySetSetting {
  readonly key: HookwiseSettingKey;
  readonly policy: string;
  readonly value: unknown;
}

function contributedDefault(key: HookwiseSettingKey): unknown {
  const parsed = HOOKWISE_SETTINGS[key].schema.safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}

/** The value VS Code policy sets for `key`, or undefined when no policy does (see policySetValue). */
export function policyValue(key: HookwiseSettingKey): { value: unknown } | undefined {
  if (SETTING_POLICIES[key] === undefined) return undefined;
  const config = vscode.workspace.getConfiguration();
  return policySetValue(config.inspect(key), config.get(key), contributedDefault(key));
}

/** Every `hookwise.*` setting a VS Code policy sets now (Show Effective Hooks lists them as managed). */
export function policySetSettings(): PolicySetSetting[] {
  const out: PolicySetSetting[] = [];
  for (const [key, policy] of Object.entries(SETTING_POLICIES) as [HookwiseSettingKey, { name: string }][]) {
    const set = policyValue(key);
    if (set) out.push({ key, policy: policy.name, value: set.value });
  }
  return out;
}
