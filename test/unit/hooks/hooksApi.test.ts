import { describe, expect, it } from 'vitest';
import { toActionResult } from '../../../src/hooks/callableAction';
import { HookMatcherError } from '../../../src/hooks/hookErrors';
import { HookEvent } from '../../../src/hooks/hookEvent';
import { block, proceed } from '../../../src/hooks/hookOutcome';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../src/hooks/hookRunner';
import { createHooksApi } from '../../../src/hooks/hooksApi';
import type { HookProvider } from '../../../src/hooks/hooksApi';
import { ToolNameMatcher } from '../../../src/hooks/matchers/toolNameMatcher';
import { preToolUse, stopInput } from './helpers';

function setup() {
  const registry = new HookRegistry();
  return { registry, hooks: createHooksApi(registry), runner: new HookRunner(registry, { projectDir: '/p' }) };
}

describe('hooks API', () => {
  it('hooks.on with priority, string matcher, and typed input; void = proceed; dispose removes', async () => {
    const { hooks, runner } = setup();
    const seen: string[] = [];
    const d = hooks.on(
      HookEvent.PreToolUse,
      (input) => {
        seen.push(input.tool_name); // typed as PreToolUseContext
        if (String(input.tool_input['command']).includes('rm -rf')) return block('Dangerous command blocked');
      },
      { priority: 100, matcher: 'Bash|Write' },
    );
    expect((await runner.run('PreToolUse', preToolUse('Bash', { command: 'rm -rf /' }))).decision).toBe('deny');
    expect((await runner.run('PreToolUse', preToolUse('Bash', { command: 'ls' }))).decision).toBeUndefined();
    expect((await runner.run('PreToolUse', preToolUse('Read', { file_path: '/x' }))).records).toHaveLength(0);
    expect(seen).toEqual(['Bash', 'Bash']);
    d.dispose();
    expect(runner.hasHooks('PreToolUse')).toBe(false);
  });

  it('typed shorthands register on their event; HookMatcher objects work too', async () => {
    const { hooks, runner } = setup();
    hooks.onStop((input) => (input.stop_hook_active ? undefined : { decision: 'continue', reason: 'run the tests' }));
    hooks.onPreToolUse(() => block('no reads'), { matcher: new ToolNameMatcher('read_*') });
    expect((await runner.run('Stop', stopInput())).decision).toBe('continue');
    expect((await runner.run('PreToolUse', preToolUse('read_file'))).decision).toBe('deny');
    expect((await runner.run('PreToolUse', preToolUse('Bash'))).decision).toBeUndefined();
  });

  it('an invalid regex matcher throws at registration', () => {
    const { hooks } = setup();
    expect(() => hooks.onPreToolUse(() => undefined, { matcher: 'Edit(' })).toThrow(HookMatcherError);
  });

  it('a HookProvider installs hooks with its tools, labelled with its name, and uninstalls together', async () => {
    const { hooks, runner, registry } = setup();
    const provider: HookProvider<{ name: string; run(): string }> = {
      name: 'todo-capability',
      tools: [{ name: 'TodoWrite', run: () => 'ok' }],
      registerHooks(h) {
        h.onBeforeStep(() => ({ additionalContext: 'todos: 2 open' }));
        h.onStop(() => ({ decision: 'continue', reason: 'todos left' }));
      },
    };
    const installed = hooks.use(provider);
    expect(installed.tools.map((t) => t.name)).toEqual(['TodoWrite']);
    expect(registry.list().map((r) => r.source)).toEqual([
      { kind: 'code', label: 'todo-capability' },
      { kind: 'code', label: 'todo-capability' },
    ]);
    expect((await runner.run('Stop', stopInput())).decision).toBe('continue');
    installed.dispose();
    expect(registry.list()).toEqual([]);
  });

  it('a provider that throws while registering leaves nothing behind', () => {
    const { hooks, registry } = setup();
    expect(() =>
      hooks.use({
        name: 'half',
        registerHooks(h) {
          h.onStop(() => undefined);
          throw new Error('oops');
        },
      }),
    ).toThrow('oops');
    expect(registry.list()).toEqual([]);
  });
});

describe('callable results', () => {
  it('accepts outcomes and nothing; rejects wrong shapes with a message', () => {
    expect(toActionResult(undefined)).toMatchObject({ status: 'ok', outcome: proceed() });
    expect(toActionResult(block('x'))).toMatchObject({ status: 'ok', outcome: { decision: 'deny', reason: 'x' } });
    expect(toActionResult({ messagesToInject: [{ role: 'user', content: 'hi' }] }).status).toBe('ok');
    for (const bad of [42, 'deny', [], { decision: 'nope' }, { reason: 5 }, { messagesToInject: [{ role: 'tool', content: '' }] }, { updatedState: {} }]) {
      const result = toActionResult(bad);
      expect(result.status, JSON.stringify(bad)).toBe('failed');
      expect(result.error).toMatch(/invalid outcome/);
    }
  });
});
