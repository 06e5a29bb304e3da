import { describe, expect, it } from 'vitest';
import { HookRegistry } from '../../../../src/hooks/hookRegistry';
import { effectiveHooksReport } from '../../../../src/vscode/config/effectiveHooksReport';
import { ExtensionApiHooks, extensionApiSource } from '../../../../src/vscode/extensionApiHooks';

describe('Show Effective Hooks: extension API hooks and settings VS Code policy sets', () => {
  it('lists each extension hook by the id that switches it off, and why it is off', () => {
    const api = new ExtensionApiHooks(new HookRegistry());
    api.applyConfig({ disabled: false, disabledHookIds: new Set(['extension acme.audit']) });
    api.forSource(extensionApiSource('acme.guard')).onPreToolUse(() => undefined, { id: 'no-forbidden', label: 'deny forbidden Bash' });
    api.forSource(extensionApiSource('acme.audit')).onStop(function auditStop() {});
    const lines = effectiveHooksReport(undefined, { apiHooks: api.list() });
    expect(lines).toEqual([
      'Effective hooks: the configuration has not been loaded yet.',
      'Registered by extensions (API):',
      '  - PreToolUse: deny forbidden Bash — extension acme.guard › no-forbidden',
      '  - Stop: auditStop() — extension acme.audit — off: switched off by hookwise.hooks.disabled',
    ]);
  });

  it('shows a policy-set setting as managed (VS Code policy)', () => {
    const lines = effectiveHooksReport(undefined, {
      policySettings: [{ key: 'hookwise.permissions.mode', policy: 'HookwisePermissionsMode', value: 'default' }],
    });
    expect(lines.slice(1)).toEqual([
      'Settings managed by VS Code policy (user and workspace values do not apply):',
      '  - hookwise.permissions.mode = "default" — managed (VS Code policy HookwisePermissionsMode)',
    ]);
  });
});
