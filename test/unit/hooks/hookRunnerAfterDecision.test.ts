import { describe, expect, it, vi } from 'vitest';
import { callableAction } from '../../../src/hooks/callableAction';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import type { HookRegistrationInit } from '../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../src/hooks/hookRunner';
import type { HookOutcome } from '../../../src/hooks/hookOutcome';
import { block, stop } from '../../../src/hooks/hookOutcome';
import { codeSource, preToolUse } from './helpers';

// A deny or stop ends the event's remaining hooks (docs/hooks.md §4), except those registered
// with runsAfterDecision: they still run, after the deciding tier, and cannot weaken it.

function setup() {
  const registry = new HookRegistry();
  const runner = new HookRunner(registry, { projectDir: '/work/project' });
  const fn = (label: string, outcome: HookOutcome | (() => unknown), init: Partial<HookRegistrationInit> = {}) =>
    registry.register({
      event: 'PreToolUse',
      source: codeSource,
      action: callableAction(typeof outcome === 'function' ? (outcome as () => HookOutcome) : () => outcome, { label }),
      ...init,
    });
  return { runner, fn };
}

describe('HookRunner: runsAfterDecision', () => {
  it('after a deny or stop, only the hooks marked runsAfterDecision still run; they cannot weaken it', async () => {
    for (const outcome of [block('denied'), stop('halt')]) {
      const { runner, fn } = setup();
      const later = vi.fn();
      fn('gate', outcome, { priority: 10 });
      fn('later', later, { priority: 0 });
      fn('sees every call', () => ({ decision: 'allow', additionalContext: 'memory note' }), { priority: -1000, runsAfterDecision: true });
      fn('last', later, { priority: -2000 });
      const result = await runner.run('PreToolUse', preToolUse());
      expect(later).not.toHaveBeenCalled();
      expect(result.decision).toBe(outcome.decision);
      expect(result.additionalContext).toEqual(['memory note']);
      expect(result.records.map((r) => r.hookLabel)).toEqual(['gate', 'sees every call']);
    }
  });

  it('without a decision, a runsAfterDecision hook runs in its place like any other', async () => {
    const { runner, fn } = setup();
    const order: string[] = [];
    fn('first', () => void order.push('first'), { priority: 10 });
    fn('marked', () => void order.push('marked'), { priority: 5, runsAfterDecision: true });
    fn('after', () => void order.push('after'), { priority: 0 });
    await runner.run('PreToolUse', preToolUse());
    expect(order).toEqual(['first', 'marked', 'after']);
  });
});
