import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfigurationContribution } from '../../../src/settings/contributedSchemas';
import { policySetValue } from '../../../src/settings/settingPolicies';

const root = path.resolve(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { vscode: string };
  contributes: { configuration: { properties: Record<string, { policy?: { name: string; minimumVersion: string; description: string } }> } };
};

type Properties = Record<string, { policy?: { name: string; minimumVersion: string; description: string }; scope?: string }>;

describe('VS Code policies of hookwise.* settings (contributes.configuration)', () => {
  const properties = (buildConfigurationContribution() as { properties: Properties }).properties;
  const withPolicy = Object.entries(properties).filter(([, p]) => p.policy !== undefined);

  it('the security-relevant settings carry a policy; a user’s own hooks and switches do not', () => {
    const keys = withPolicy.map(([key]) => key);
    for (const key of [
      'hookwise.permissions.mode',
      'hookwise.permissions.askFallback',
      'hookwise.model.baseUrl',
      'hookwise.mcp.trustReadOnlyHint',
      'hookwise.plugins.directories',
    ])
      expect(keys).toContain(key);
    for (const key of ['hookwise.hooks', 'hookwise.hooks.disabled', 'hookwise.mcp.servers']) expect(keys).not.toContain(key);
  });

  it('every policy is valid by VS Code’s rules: a unique name (VS Code drops a setting whose policy name is taken), a version, a description', () => {
    const names = withPolicy.map(([, p]) => p.policy?.name);
    expect(new Set(names).size).toBe(names.length);
    const minimum = /(\d+\.\d+)/.exec(pkg.engines.vscode)?.[1];
    for (const [key, p] of withPolicy) {
      const policy = p.policy!;
      // Group policy (ADMX) and policy.json names: letters and digits; the prefix keeps them from clashing with another extension's.
      expect(policy.name, key).toMatch(/^Hookwise[A-Z][A-Za-z0-9]+$/);
      expect(policy.minimumVersion, key).toMatch(/^\d+\.\d+$/);
      expect(policy.minimumVersion, key).toBe(minimum);
      expect(policy.description.length, key).toBeGreaterThan(10);
      expect(Object.keys(policy).sort(), key).toEqual(['description', 'minimumVersion', 'name']);
    }
  });

  it('package.json carries the generated policies (npm run schemas is up to date)', () => {
    for (const [key, p] of withPolicy) expect(pkg.contributes.configuration.properties[key]?.policy, key).toEqual(p.policy);
  });
});

describe('reading a policy-set value through the extension API (inspect reports it as the default)', () => {
  it('a policy value different from the default is found, whatever the user set', () => {
    expect(policySetValue({ defaultValue: 'default', globalValue: 'bypassPermissions' }, 'bypassPermissions', 'default')).toBeUndefined();
    expect(policySetValue({ defaultValue: 'plan', globalValue: 'bypassPermissions' }, 'plan', 'default')).toEqual({ value: 'plan' });
  });

  it('a policy equal to the default still wins over a user’s value (get differs from the layers)', () => {
    expect(policySetValue({ defaultValue: false, globalValue: true }, false, false)).toEqual({ value: false });
    expect(policySetValue({ defaultValue: false, globalValue: true }, true, false)).toBeUndefined();
    expect(policySetValue({ defaultValue: [], workspaceValue: ['a'] }, [], [])).toEqual({ value: [] });
  });

  it('no policy: nothing is reported', () => {
    expect(policySetValue(undefined, undefined, false)).toBeUndefined();
    expect(policySetValue({ defaultValue: 'deny' }, 'deny', 'deny')).toBeUndefined();
  });
});
