import { describe, expect, it } from 'vitest';
import { buildHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import { block } from '../../../src/hooks/hookOutcome';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../src/hooks/hookRunner';
import { ExtensionApiHooks, extensionApiSource, type ExtensionHookPolicy } from '../../../src/vscode/extensionApiHooks';
import { preToolUse } from '../hooks/helpers';

const OPEN: ExtensionHookPolicy = { disabled: false };

function setup(policy: ExtensionHookPolicy | null = OPEN) {
  const registry = new HookRegistry();
  const api = new ExtensionApiHooks(registry);
  if (policy) api.applyConfig(policy);
  const runner = new HookRunner(registry, { projectDir: '/p' });
  const hooks = api.forSource(extensionApiSource('acme.guard'));
  const denyForbidden = hooks.onPreToolUse((ctx) => (String(ctx.tool_input['command']).includes('forbidden') ? block('acme says no') : undefined), {
    matcher: 'Bash',
    id: 'no-forbidden',
  });
  const deny = async () => (await runner.run('PreToolUse', preToolUse('Bash', { command: 'echo forbidden' }))).decision;
  return { registry, api, runner, denyForbidden, deny };
}

describe('hooks other extensions register through the API', () => {
  it('run labelled with the extension id, and dispose() removes them', async () => {
    const { runner, denyForbidden, deny } = setup();
    const result = await runner.run('PreToolUse', preToolUse('Bash', { command: 'echo forbidden' }));
    expect(result.decision).toBe('deny');
    expect(result.records[0]?.source).toEqual({ kind: 'code', label: 'extension acme.guard' });
    expect(result.records[0]?.hookId).toBe('extension acme.guard › no-forbidden');
    denyForbidden.dispose();
    expect(await deny()).toBeUndefined();
    expect(runner.hasHooks('PreToolUse')).toBe(false);
  });

  it('hookwise.hooks.disabled switches off one hook by its id or all of an extension, live', async () => {
    const { api, deny } = setup();
    api.applyConfig({ disabled: false, disabledHookIds: new Set(['extension acme.guard › no-forbidden']) });
    expect(await deny()).toBeUndefined();
    api.applyConfig(OPEN);
    expect(await deny()).toBe('deny');
    api.applyConfig({ disabled: false, disabledHookIds: new Set(['extension acme.guard']) });
    expect(await deny()).toBeUndefined();
    api.applyConfig({ disabled: false, disabledHookIds: new Set(['extension other.ext']) });
    expect(await deny()).toBe('deny');
  });

  it('a managed allowManagedHooksOnly policy turns them off; they come back when it is lifted', async () => {
    const managed = buildHookConfig([
      {
        input: { kind: 'claudeSettingsFile', scope: 'managed', file: '/etc/claude-code/managed-settings.json', displayFile: 'managed policy' },
        text: JSON.stringify({ allowManagedHooksOnly: true }),
      },
    ]);
    expect(managed.managedOnly?.file).toBe('managed policy');
    const { api, deny } = setup();
    api.applyConfig(managed);
    expect(api.blockedBy(['extension acme.guard'])).toMatch(/allowManagedHooksOnly/);
    expect(await deny()).toBeUndefined();
    api.applyConfig(buildHookConfig([]));
    expect(await deny()).toBe('deny');
  });

  it('disableAllHooks turns them off too', async () => {
    const { api, deny } = setup();
    api.applyConfig(buildHookConfig([], { enabled: false }));
    expect(await deny()).toBeUndefined();
  });

  it('nothing runs before the first configuration is known (a policy may forbid them)', async () => {
    const { api, deny } = setup(null);
    expect(await deny()).toBeUndefined();
    api.applyConfig(OPEN);
    expect(await deny()).toBe('deny');
  });

  it('a bad registration throws to its caller even while hooks are off; a disposed hook stays gone after a new configuration', async () => {
    const { api, registry, denyForbidden, deny } = setup(null);
    const hooks = api.forSource(extensionApiSource('acme.guard'));
    expect(() => hooks.onPreToolUse(() => undefined, { timeoutMs: -1 })).toThrow(/timeout/);
    expect(() => hooks.onPreToolUse(() => undefined, { id: 'no-forbidden' })).toThrow(/already registered/);
    denyForbidden.dispose();
    api.applyConfig(OPEN);
    expect(await deny()).toBeUndefined();
    expect(registry.list()).toHaveLength(0);
  });
});
