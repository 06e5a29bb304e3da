import { describe, expect, it } from 'vitest';
import { CommandHookAction } from '../../../src/hooks/actions/commandHookAction';
import { callableAction } from '../../../src/hooks/callableAction';
import { forEvent } from '../../../src/hooks/hookContext';
import type { HookOutcome } from '../../../src/hooks/hookOutcome';
import { modifyInput, modifyResult } from '../../../src/hooks/hookOutcome';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import type { HookRegistrationInit } from '../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../src/hooks/hookRunner';
import { codeSource, env, preToolUse } from './helpers';

/** Size and depth bounds: what a rewrite or a replaced result may carry to later hooks and the tool. */

function setup() {
  const registry = new HookRegistry();
  const runner = new HookRunner(registry, { projectDir: process.cwd() });
  const add = (init: Partial<HookRegistrationInit> & Pick<HookRegistrationInit, 'action'>) =>
    registry.register({ event: 'PreToolUse', source: codeSource, ...init });
  const fn = (label: string, outcome: HookOutcome | ((input: Readonly<Record<string, unknown>>) => unknown), init: Partial<HookRegistrationInit> = {}) =>
    add({ action: callableAction(typeof outcome === 'function' ? (outcome as () => HookOutcome) : () => outcome, { label }), ...init });
  return { runner, add, fn };
}

function deep(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe('a rewrite later hooks cannot see is never run silently', () => {
  it('a later command hook that cannot be given the rewritten input denies the call, even failing open', async () => {
    const { runner, fn, add } = setup();
    // A BigInt passes every depth bound but JSON.stringify refuses it: the later hook never sees the call.
    fn('rewrite', modifyInput({ command: 'touch PWN', n: 10n }), { priority: 10 });
    add({ action: new CommandHookAction('cat > /dev/null'), continueOnFailure: true });
    const result = await runner.run('PreToolUse', preToolUse('Bash', { command: 'ls' }));
    expect(result.decision).toBe('deny');
    expect(result.reason).toMatch(/could not check the input as rewritten by an earlier hook.*could not serialize the hook input/);
    expect(result.failures[0]).toMatchObject({ failureReason: 'inputNotSerializable' });
  });

  it('without a rewrite, the same failure respects continueOnFailure (fail open by default)', async () => {
    const { runner, add } = setup();
    add({ action: new CommandHookAction('cat > /dev/null') });
    const result = await runner.run('PreToolUse', preToolUse('Bash', { command: 'ls', n: 10n }));
    expect(result.decision).toBeUndefined();
    expect(result.failures[0]).toMatchObject({ failureReason: 'inputNotSerializable' });
  });

  it('an updatedInput nested deeper than 64 levels is refused: later hooks and the result keep the original input', async () => {
    const { runner, fn } = setup();
    const seen: unknown[] = [];
    fn('deep', modifyInput({ command: 'touch PWN', extra: deep(5000) }), { priority: 10 });
    fn('observe', (input: Readonly<Record<string, unknown>>) => void seen.push(input['tool_input']));
    const result = await runner.run('PreToolUse', preToolUse('Bash', { command: 'ls' }));
    expect(seen).toEqual([{ command: 'ls' }]);
    expect(result.updatedInput).toBeUndefined();
    expect(result.failures[0]).toMatchObject({
      hookLabel: 'deep',
      failureReason: 'invalidUpdatedInput',
      error: expect.stringContaining('nested deeper than 64 levels'),
    });
  });

  it("the validator's parsed input (unknown keys stripped) is what later hooks and the result get", async () => {
    const { runner, fn } = setup();
    const seen: unknown[] = [];
    fn('extra', modifyInput({ command: 'echo hi', smuggled: { a: 1 } }), { priority: 10 });
    fn('observe', (input: Readonly<Record<string, unknown>>) => void seen.push(input['tool_input']));
    const result = await runner.run('PreToolUse', preToolUse('Bash', { command: 'ls' }), {
      validateUpdatedInput: (input) => ({ ok: true, input: { command: input['command'] } }),
    });
    expect(seen).toEqual([{ command: 'echo hi' }]);
    expect(result.updatedInput).toEqual({ command: 'echo hi' });
  });
});

describe('in-process results are bounded like hook stdout', () => {
  it('a PostToolUse updatedResult nested deeper than 64 levels is a failure; the tool result stands', async () => {
    const { runner, fn } = setup();
    fn('deep', modifyResult(deep(5000)), { event: 'PostToolUse' });
    const post = await runner.run(
      'PostToolUse',
      forEvent('PostToolUse', env, {
        permission_mode: 'default',
        tool_name: 'Read',
        tool_input: { file_path: '/a' },
        tool_use_id: 't',
        tool_response: 'x',
        duration_ms: 3,
      }),
    );
    expect(post.hasUpdatedResult).toBe(false);
    expect(post.failures[0]).toMatchObject({ failureReason: 'invalidOutcome', error: expect.stringContaining('updatedResult nested deeper than 64 levels') });
  });
});
