import { describe, expect, it } from 'vitest';
import { HookMiddlewareError } from '../../../src/hooks/hookMiddleware';
import { addContext, allow, block, modifyInput, proceed, stop } from '../../../src/hooks/hookOutcome';
import { HookStack } from '../../../src/hooks/hookStack';
import type { HookOutcome } from '../../../src/hooks/hookOutcome';
import { preToolUse } from './helpers';

// Middleware hooks `(ctx, next) => …` on the real runner, through a standalone HookStack: the
// same registry, order and merge the agent uses.

describe('hooks.use(event, middleware)', () => {
  it('runs before and after the hooks below it, in priority order, and next() returns their merged outcome', async () => {
    const stack = new HookStack();
    const order: string[] = [];
    let seenBelow: HookOutcome | undefined;
    stack.hooks.onPreToolUse(
      () => {
        order.push('high');
      },
      { priority: 200 },
    );
    stack.hooks.use(
      'PreToolUse',
      async (ctx, next) => {
        order.push(`before ${ctx.tool_name}`);
        seenBelow = await next();
        order.push('after');
        return seenBelow;
      },
      { priority: 100, label: 'timer' },
    );
    stack.hooks.onPreToolUse(
      () => {
        order.push('low');
        return addContext('checked by low');
      },
      { priority: 0 },
    );
    stack.hooks.onPreToolUse(() => void order.push('lower'), { priority: -10 });
    const result = await stack.run('PreToolUse', preToolUse('Bash', { command: 'ls' }));
    expect(order).toEqual(['high', 'before Bash', 'low', 'lower', 'after']);
    expect(seenBelow).toEqual({ additionalContext: 'checked by low' });
    expect(result.additionalContext).toEqual(['checked by low']);
    // Every hook shows as a run, in registration order; the middleware's below it merged as if it were not there.
    expect(result.records.map((r) => r.hookLabel)).toEqual(['anonymous function', 'timer', 'anonymous function', 'anonymous function']);
    expect(result.records.every((r) => r.status === 'ok')).toBe(true);
  });

  it('short-circuits: without next() the hooks below never run and the middleware decides', async () => {
    const stack = new HookStack();
    let belowRan = false;
    stack.hooks.use('PreToolUse', () => block('rate limit: 3 calls a minute'), { priority: 10, matcher: 'Bash' });
    stack.hooks.onPreToolUse(() => {
      belowRan = true;
      return allow();
    });
    const limited = await stack.run('PreToolUse', preToolUse('Bash', { command: 'ls' }));
    expect(limited.decision).toBe('deny');
    expect(limited.reason).toBe('rate limit: 3 calls a minute');
    expect(limited.records).toHaveLength(1);
    expect(belowRan).toBe(false);
    // The matcher applies: for Read the middleware does not run and the hook below does.
    const read = await stack.run('PreToolUse', preToolUse('Read', { file_path: '/x' }));
    expect(read.decision).toBe('allow');
    expect(belowRan).toBe(true);
  });

  it('a second next() is a HookMiddlewareError: the middleware fails, the hooks below ran once and their deny stands', async () => {
    const stack = new HookStack();
    let belowRuns = 0;
    let thrown: unknown;
    stack.hooks.use(
      'PreToolUse',
      async (_ctx, next) => {
        await next();
        try {
          await next();
        } catch (error) {
          thrown = error;
          throw error;
        }
      },
      { priority: 5, label: 'retry' },
    );
    stack.hooks.onPreToolUse(() => {
      belowRuns++;
      return block('no');
    });
    const result = await stack.run('PreToolUse', preToolUse('Bash', { command: 'ls' }));
    expect(HookMiddlewareError.is(thrown, 'nextCalledTwice')).toBe(true);
    expect(belowRuns).toBe(1);
    expect(result.decision).toBe('deny');
    expect(result.reason).toBe('no');
    expect(result.failures.map((f) => [f.hookLabel, f.error])).toEqual([['retry', expect.stringContaining('called next() twice')]]);
  });

  it('cannot weaken a deny or stop from below, but may replace a weaker outcome or add to it', async () => {
    const stack = new HookStack();
    stack.hooks.use('PreToolUse', async (_ctx, next) => ((await next()).decision === 'ask' ? allow('auto-approved') : proceed()), { priority: 1 });
    stack.hooks.onPreToolUse((ctx) => (ctx.tool_input['command'] === 'rm' ? stop('never') : { decision: 'ask', reason: 'sure?' }));
    const stopped = await stack.run('PreToolUse', preToolUse('Bash', { command: 'rm' }));
    expect(stopped.decision).toBe('stop');
    expect(stopped.decidedBy).toMatchObject({ kind: 'hook', hookLabel: 'anonymous function' });
    const asked = await stack.run('PreToolUse', preToolUse('Bash', { command: 'ls' }));
    expect(asked.decision).toBe('allow');
    expect(asked.reason).toBe('auto-approved');
  });

  it('a middleware that returns nothing after next() keeps the rewrite from below; middlewares nest', async () => {
    const stack = new HookStack();
    const order: string[] = [];
    stack.hooks.use(
      'PreToolUse',
      async (_ctx, next) => {
        order.push('outer in');
        await next();
        order.push('outer out');
      },
      { priority: 2 },
    );
    stack.hooks.use(
      'PreToolUse',
      async (_ctx, next) => {
        order.push('inner in');
        const below = await next();
        order.push('inner out');
        return below;
      },
      { priority: 1 },
    );
    stack.hooks.onPreToolUse(() => modifyInput({ command: 'ls -la' }));
    const result = await stack.run('PreToolUse', preToolUse('Bash', { command: 'ls' }));
    expect(order).toEqual(['outer in', 'inner in', 'inner out', 'outer out']);
    expect(result.updatedInput).toEqual({ command: 'ls -la' });
  });

  it('keeps use(provider) working beside the middleware overload', async () => {
    const stack = new HookStack();
    const installed = stack.hooks.use({ name: 'guard', registerHooks: (h) => void h.onPreToolUse(() => block('guarded')) });
    expect((await stack.run('PreToolUse', preToolUse('Bash', { command: 'ls' }))).decision).toBe('deny');
    installed.dispose();
    expect((await stack.run('PreToolUse', preToolUse('Bash', { command: 'ls' }))).decision).toBeUndefined();
  });
});
