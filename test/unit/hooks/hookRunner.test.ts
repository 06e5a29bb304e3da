import { describe, expect, it, vi } from 'vitest';
import { callableAction } from '../../../src/hooks/callableAction';
import { forEvent } from '../../../src/hooks/hookContext';
import type { HookEvent } from '../../../src/hooks/hookEvent';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import type { HookRegistrationInit } from '../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../src/hooks/hookRunner';
import type { HookRunnerOptions } from '../../../src/hooks/hookRunner';
import type { HookRunObserver, HookRunRecord } from '../../../src/hooks/hookRunTypes';
import type { HookOutcome } from '../../../src/hooks/hookOutcome';
import { addContext, allow, ask, block, continueWith, modifyInput, modifyResult, stop } from '../../../src/hooks/hookOutcome';
import { compileClaudeMatcher } from '../../../src/hooks/matchers/claudeMatcher';
import { CallableMatcher } from '../../../src/hooks/matchers/callableMatcher';
import { codeSource, delay, env, fakeAction, fileSource, preToolUse, stopInput } from './helpers';

function setup(options: Partial<HookRunnerOptions> = {}) {
  const registry = new HookRegistry();
  const runner = new HookRunner(registry, { projectDir: '/work/project', ...options });
  const add = (init: Partial<HookRegistrationInit> & Pick<HookRegistrationInit, 'action'>) =>
    registry.register({ event: 'PreToolUse', source: codeSource, ...init });
  const fn = (label: string, outcome: HookOutcome | ((input: Readonly<Record<string, unknown>>) => unknown), init: Partial<HookRegistrationInit> = {}) =>
    add({ action: callableAction(typeof outcome === 'function' ? (outcome as () => HookOutcome) : () => outcome, { label }), ...init });
  return { registry, runner, add, fn };
}

describe('HookRunner: selection and order (docs/hooks.md §4.1–4.3)', () => {
  it('returns a shared empty result, without observer calls or ids, when nothing listens or matches', async () => {
    const observer = { onHookStarted: vi.fn(), onHookFinished: vi.fn() };
    const { runner, fn } = setup({ observers: [observer] });
    const a = await runner.run('PreToolUse', preToolUse());
    const b = await runner.run('PreToolUse', preToolUse());
    expect(a).toBe(b);
    expect(a.records).toEqual([]);
    expect(a.occurrenceId).toBe('');
    fn('only-read', allow(), { matcher: compileClaudeMatcher('Read') });
    const c = await runner.run('PreToolUse', preToolUse('Bash'));
    expect(c).toBe(a);
    expect(observer.onHookStarted).not.toHaveBeenCalled();
    expect(runner.hasHooks('PreToolUse')).toBe(true);
    expect(runner.hasHooks('Stop')).toBe(false);
  });

  it('runs equal priorities in registration order and higher priorities first', async () => {
    const order: string[] = [];
    const { runner, fn } = setup();
    fn('low', () => void order.push('low'), { priority: -100 });
    fn('a', () => void order.push('a'));
    fn('high', () => void order.push('high'), { priority: 100 });
    fn('b', () => void order.push('b'));
    fn('c', () => void order.push('c'));
    const result = await runner.run('PreToolUse', preToolUse());
    expect(order).toEqual(['high', 'a', 'b', 'c', 'low']);
    expect(result.records.map((r) => r.hookLabel)).toEqual(['high', 'a', 'b', 'c', 'low']);
  });

  it('runs a tier concurrently and tiers sequentially', async () => {
    const { runner, add } = setup();
    let running = 0;
    let maxRunning = 0;
    const events: string[] = [];
    const tracked = (label: string, priority: number) =>
      add({
        priority,
        action: {
          kind: 'command',
          label,
          defaultTimeoutMs: 5000,
          async run() {
            running++;
            maxRunning = Math.max(maxRunning, running);
            events.push(`start ${label}`);
            await delay(20);
            events.push(`end ${label}`);
            running--;
            return { status: 'ok', outcome: {} };
          },
        },
      });
    tracked('t1-a', 10);
    tracked('t1-b', 10);
    tracked('t2', 0);
    await runner.run('PreToolUse', preToolUse());
    expect(maxRunning).toBe(2);
    expect(events.indexOf('start t2')).toBeGreaterThan(events.indexOf('end t1-a'));
    expect(events.indexOf('start t2')).toBeGreaterThan(events.indexOf('end t1-b'));
  });

  it('runs agent-scoped registrations only for that agent type', async () => {
    const { runner, fn } = setup();
    fn('explore-only', addContext('explore'), { agentType: 'Explore' });
    fn('everyone', addContext('all'));
    const main = await runner.run('PreToolUse', preToolUse());
    expect(main.additionalContext).toEqual(['all']);
    const sub = await runner.run(
      'PreToolUse',
      preToolUse('Bash', { command: 'ls' }, { ...env, agent_id: 'a2', parent_agent_id: 'agent-main', agent_type: 'Explore' }),
    );
    expect(sub.additionalContext).toEqual(['explore', 'all']);
  });

  it('dedups identical commands across sources, keeping the first; callables never dedup', async () => {
    const { runner, add, fn } = setup();
    const first = fakeAction({ label: 'lint.sh', dedupKey: 'lint.sh', outcome: addContext('first') });
    const second = fakeAction({ label: 'lint.sh', dedupKey: 'lint.sh', outcome: addContext('second') });
    const other = fakeAction({ label: 'other.sh', dedupKey: 'other.sh', outcome: addContext('other') });
    add({ action: first, source: fileSource('hooks.PreToolUse[0].hooks[0]') });
    add({ action: second, source: fileSource('hooks.PreToolUse[1].hooks[0]') });
    add({ action: other });
    const f = () => addContext('callable');
    fn('f', f);
    fn('f', f);
    const result = await runner.run('PreToolUse', preToolUse());
    expect(first.runs).toBe(1);
    expect(second.runs).toBe(0);
    expect(result.additionalContext).toEqual(['first', 'other', 'callable', 'callable']);
  });
});

describe('HookRunner: merge (docs/hooks.md §4.4)', () => {
  it('merges in registration order even when hooks finish in reverse order', async () => {
    const { runner, add } = setup();
    add({ action: fakeAction({ label: 'slow', delayMs: 60, outcome: { ...modifyInput({ command: 'slow', a: 1 }), additionalContext: 'slow' } }) });
    add({ action: fakeAction({ label: 'mid', delayMs: 30, outcome: { ...modifyInput({ command: 'mid' }), additionalContext: 'mid' } }) });
    add({ action: fakeAction({ label: 'fast', delayMs: 0, outcome: { ...modifyInput({ b: 2 }), additionalContext: 'fast' } }) });
    const result = await runner.run('PreToolUse', preToolUse('Bash', { command: 'orig', keep: true }));
    expect(result.additionalContext).toEqual(['slow', 'mid', 'fast']);
    // later registration wins per top-level key; untouched keys survive
    expect(result.updatedInput).toEqual({ command: 'mid', keep: true, a: 1, b: 2 });
    expect(result.records.map((r) => r.hookLabel)).toEqual(['slow', 'mid', 'fast']);
  });

  it('reports completion order to observers but registration order in the result', async () => {
    const finished: string[] = [];
    const { runner, add } = setup({ observers: [{ onHookFinished: (r) => void finished.push(r.hookLabel) }] });
    add({ action: fakeAction({ label: 'slow', delayMs: 40 }) });
    add({ action: fakeAction({ label: 'fast', delayMs: 0 }) });
    const result = await runner.run('PreToolUse', preToolUse());
    expect(finished).toEqual(['fast', 'slow']);
    expect(result.records.map((r) => r.hookLabel)).toEqual(['slow', 'fast']);
  });

  it('deny beats ask beats allow; a lower-priority deny overrides an earlier ask', async () => {
    const { runner, fn } = setup();
    fn('asker', ask('check this'), { priority: 10 });
    fn('allower', allow('fine'), { priority: 10 });
    fn('denier', block('no way'), { priority: 0 });
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.decision).toBe('deny');
    expect(result.reason).toBe('no way');
    expect(result.asked).toBe(false);
    expect(result.decidedBy).toMatchObject({ kind: 'hook', hookLabel: 'denier' });
    expect(result.records.map((r) => r.status)).toEqual(['asked', 'ok', 'blocked']);
  });

  it('within a tier, deny wins regardless of registration position, and the first deny’s reason is kept', async () => {
    const { runner, fn } = setup();
    fn('allow', allow());
    fn('deny1', block('first'));
    fn('deny2', block('second'));
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.decision).toBe('deny');
    expect(result.reason).toBe('first');
  });

  it('deny and stop end the run: later tiers do not run', async () => {
    for (const outcome of [block('denied'), stop('halt')]) {
      const { runner, fn } = setup();
      const later = vi.fn();
      fn('gate', outcome, { priority: 10 });
      fn('sibling', addContext('same tier'), { priority: 10 });
      fn('later', later, { priority: 0 });
      const result = await runner.run('PreToolUse', preToolUse());
      expect(later).not.toHaveBeenCalled();
      expect(result.decision).toBe(outcome.decision);
      expect(result.additionalContext).toEqual(['same tier']);
      expect(result.records).toHaveLength(2);
    }
  });

  it('stop outranks deny; continue (Stop event) does not end the run', async () => {
    const { runner, fn } = setup();
    fn('deny', block('d'));
    fn('stop', stop('s'));
    expect((await runner.run('PreToolUse', preToolUse())).decision).toBe('stop');

    const s = setup();
    const later = vi.fn(() => addContext('later ran'));
    s.fn('more', continueWith('write tests first'), { event: 'Stop', priority: 5 });
    s.fn('later', later, { event: 'Stop' });
    const result = await s.runner.run('Stop', stopInput());
    expect(later).toHaveBeenCalled();
    expect(result.decision).toBe('continue');
    expect(result.reason).toBe('write tests first');
    expect(result.records[0]?.status).toBe('blocked');
  });

  it('ask does not end the run early', async () => {
    const { runner, fn } = setup();
    const later = vi.fn(() => addContext('ran'));
    fn('asker', ask('?'), { priority: 1 });
    fn('later', later);
    const result = await runner.run('PreToolUse', preToolUse());
    expect(later).toHaveBeenCalled();
    expect(result.additionalContext).toEqual(['ran']);
  });

  it('later tiers see the input rewritten by earlier tiers', async () => {
    const { runner, fn } = setup();
    const seen: unknown[] = [];
    fn('rewrite', modifyInput({ command: 'ls -la' }), { priority: 10 });
    fn('observe', (input: Readonly<Record<string, unknown>>) => void seen.push(input['tool_input']));
    const original = preToolUse('Bash', { command: 'ls', description: 'list' });
    const result = await runner.run('PreToolUse', original);
    expect(seen).toEqual([{ command: 'ls -la', description: 'list' }]);
    expect(result.updatedInput).toEqual({ command: 'ls -la', description: 'list' });
    expect(original.tool_input).toEqual({ command: 'ls', description: 'list' }); // never mutated
    expect(result.records[1]?.input['tool_input']).toEqual({ command: 'ls -la', description: 'list' });
  });

  it('a rewrite rejected by the tool schema is a failure of the hook that wrote it', async () => {
    const { runner, fn } = setup();
    fn('good', modifyInput({ command: 'echo ok' }));
    fn('bad', modifyInput({ command: 42 }));
    const result = await runner.run('PreToolUse', preToolUse(), {
      validateUpdatedInput: (input) => (typeof input['command'] === 'string' ? { ok: true } : { ok: false, error: 'command: expected string' }),
    });
    expect(result.updatedInput).toEqual({ command: 'echo ok' });
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({ hookLabel: 'bad', status: 'failed', failureReason: 'invalidUpdatedInput' });
    expect(result.failures[0]?.error).toContain('command: expected string');
    expect(result.decision).toBeUndefined();
  });

  it('updatedInput on an event without input is a failure with a clear message', async () => {
    const { runner, fn } = setup();
    fn('confused', { ...modifyInput({ x: 1 }), additionalContext: 'still merged' }, { event: 'Stop' });
    const result = await runner.run('Stop', stopInput());
    expect(result.updatedInput).toBeUndefined();
    expect(result.failures[0]).toMatchObject({ status: 'failed', failureReason: 'updatedInputNotAllowed' });
    expect(result.failures[0]?.error).toMatch(/updatedInput on Stop.*no input to rewrite/);
    expect(result.additionalContext).toEqual(['still merged']);
  });

  it('UserPromptSubmit may rewrite the prompt; PostToolUse may replace the result', async () => {
    const { runner, fn } = setup();
    fn('prompt', modifyInput({ prompt: 'rewritten' }), { event: 'UserPromptSubmit' });
    const p = await runner.run('UserPromptSubmit', forEvent('UserPromptSubmit', env, { prompt: 'original' }));
    expect(p.updatedInput).toEqual({ prompt: 'rewritten' });
    fn('r1', modifyResult('first'), { event: 'PostToolUse' });
    fn('r2', modifyResult({ replaced: true }), { event: 'PostToolUse' });
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
    expect(post.hasUpdatedResult).toBe(true);
    expect(post.updatedResult).toEqual({ replaced: true });
  });

  it('concatenates contexts, appends messages, collects system messages and plain outputs, ORs suppressOutput', async () => {
    const { runner, fn, add } = setup();
    fn('a', { additionalContext: 'ctx a', messagesToInject: [{ role: 'user', content: 'm1' }], systemMessage: 'sys a' });
    add({ action: fakeAction({ label: 'cmd', result: { plainOutput: 'plain stdout' }, outcome: { suppressOutput: true } }) });
    fn('b', {
      additionalContext: 'ctx b',
      messagesToInject: [
        { role: 'system', content: 'm2' },
        { role: 'user', content: 'm3' },
      ],
    });
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.additionalContext).toEqual(['ctx a', 'ctx b']);
    expect(result.messagesToInject.map((m) => m.content)).toEqual(['m1', 'm2', 'm3']);
    expect(result.systemMessages).toEqual(['sys a']);
    expect(result.plainOutputs).toEqual(['plain stdout']);
    expect(result.suppressOutput).toBe(true);
  });

  it('deep-merges metadata and reports a conflicting key as a failure (earlier value kept)', async () => {
    const { runner, fn } = setup();
    fn('a', { metadataToMerge: { audit: { safety_check: true }, same: 1 } });
    fn('b', { metadataToMerge: { audit: { log: ['x'] }, same: 1 } });
    fn('c', { metadataToMerge: { audit: { safety_check: false }, other: 'ok' } });
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.metadata).toEqual({ audit: { safety_check: true, log: ['x'] }, same: 1, other: 'ok' });
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({ hookLabel: 'c', failureReason: 'metadataConflict' });
    expect(result.failures[0]?.error).toContain('audit.safety_check');
  });
});

describe('HookRunner: each run reports finished exactly once, with its final record', () => {
  it('a hook failed by merging (metadata conflict, rejected rewrite) or by malformed JSON (fail closed) is reported once, as failed', async () => {
    const finished: HookRunRecord[] = [];
    const { runner, fn, add } = setup({ observers: [{ onHookFinished: (r) => void finished.push(r) }] });
    fn('a', { metadataToMerge: { k: 1 } });
    fn('conflict', { metadataToMerge: { k: 2 } });
    fn('bad-rewrite', { updatedInput: { command: 42 } });
    add({ action: fakeAction({ label: 'broken-json', result: { malformedJson: 'Unexpected end of JSON input' } }), continueOnFailure: false });
    const result = await runner.run('PreToolUse', preToolUse(), {
      validateUpdatedInput: (i) => (typeof i['command'] === 'string' ? { ok: true } : { ok: false, error: 'command must be a string' }),
    });
    expect(finished.map((r) => r.hookLabel).sort()).toEqual(['a', 'bad-rewrite', 'broken-json', 'conflict']);
    const byLabel = new Map(finished.map((r) => [r.hookLabel, r]));
    expect(byLabel.get('conflict')).toMatchObject({ status: 'failed', failureReason: 'metadataConflict' });
    expect(byLabel.get('bad-rewrite')).toMatchObject({ status: 'failed', failureReason: 'invalidUpdatedInput' });
    expect(byLabel.get('broken-json')).toMatchObject({ status: 'failed', failureReason: 'invalidOutcome' });
    expect(byLabel.get('a')?.status).toBe('ok');
    // What observers saw is what the result holds.
    for (const record of result.records) expect(byLabel.get(record.hookLabel)).toEqual(record);
  });
});

describe('HookRunner: failures, timeouts, cancellation', () => {
  it('a callable that throws is a fail-open failure by default', async () => {
    const { runner, fn } = setup();
    fn('boom', () => {
      throw new Error('kaput');
    });
    fn('ok', allow());
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.decision).toBe('allow');
    expect(result.failures[0]).toMatchObject({ hookLabel: 'boom', status: 'failed' });
    expect(result.failures[0]?.error).toContain('kaput');
  });

  it('a failing hook with continueOnFailure:false denies, naming the hook', async () => {
    const { runner, fn } = setup();
    fn('policy-gate', () => Promise.reject(new Error('db down')), { continueOnFailure: false });
    fn('ok', allow());
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.decision).toBe('deny');
    expect(result.reason).toContain('policy-gate');
    expect(result.reason).toContain('db down');
    expect(result.decidedBy).toMatchObject({ kind: 'hook', hookLabel: 'policy-gate' });
  });

  it('a callable returning the wrong shape is a failure', async () => {
    const { runner, fn } = setup();
    fn('bad-shape', () => ({ decision: 'maybe' }));
    fn('extra-key', () => ({ decision: 'deny', updatedState: {} }));
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.decision).toBeUndefined(); // the invalid deny is not applied
    expect(result.failures.map((f) => f.hookLabel)).toEqual(['bad-shape', 'extra-key']);
    expect(result.failures[0]?.error).toContain('invalid outcome');
  });

  it('a hanging hook times out within the timeout plus a margin, even when it ignores its signal', async () => {
    const { runner, add } = setup();
    let aborted = false;
    const hanging = fakeAction({
      label: 'hang',
      hang: true,
      ignoreSignal: true,
      onRun: (_i, ctx) => ctx.signal.addEventListener('abort', () => (aborted = true)),
    });
    add({ action: hanging, timeoutMs: 50 });
    add({ action: fakeAction({ label: 'fine', outcome: addContext('fine') }) });
    const started = performance.now();
    const result = await runner.run('PreToolUse', preToolUse());
    const elapsed = performance.now() - started;
    expect(result.records[0]).toMatchObject({ status: 'timed-out', failureReason: 'timeout' });
    expect(result.failures).toHaveLength(1);
    expect(aborted).toBe(true); // its AbortSignal was aborted
    expect(result.additionalContext).toEqual(['fine']);
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(2_000); // generous bound: resolved, not stuck
  });

  it('a hanging async callable times out too; fail-closed turns it into deny', async () => {
    const { runner, fn } = setup();
    fn('hang', () => new Promise<never>(() => {}), { timeoutMs: 30, continueOnFailure: false });
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.records[0]?.status).toBe('timed-out');
    expect(result.decision).toBe('deny');
  });

  it('the run signal cancels pending hooks and skips later tiers', async () => {
    const { runner, add, fn } = setup();
    const controller = new AbortController();
    let hookSignal: AbortSignal | undefined;
    add({ action: fakeAction({ label: 'hang', hang: true, onRun: (_i, ctx) => (hookSignal = ctx.signal) }), priority: 1 });
    const later = vi.fn();
    fn('later', later);
    setTimeout(() => controller.abort(), 20);
    const result = await runner.run('PreToolUse', preToolUse(), { signal: controller.signal });
    expect(result.records[0]?.status).toBe('cancelled');
    expect(result.cancelled).toBe(true);
    expect(hookSignal?.aborted).toBe(true);
    expect(later).not.toHaveBeenCalled();
    expect(result.failures).toEqual([]);
  });

  it('a throwing matcher makes its hook fail instead of silently skipping it', async () => {
    const { runner, fn } = setup();
    fn('gate', allow(), {
      continueOnFailure: false,
      matcher: new CallableMatcher(() => {
        throw new Error('bad predicate');
      }),
    });
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.decision).toBe('deny');
    expect(result.failures[0]?.error).toContain('bad predicate');
  });

  it('an observer that throws does not break the run', async () => {
    const bad: HookRunObserver = {
      onHookStarted: () => {
        throw new Error('observer bug');
      },
      onHookFinished: () => {
        throw new Error('observer bug');
      },
    };
    const good = { onHookFinished: vi.fn() };
    const { runner, fn } = setup({ observers: [bad, good] });
    fn('x', block('no'));
    const result = await runner.run('PreToolUse', preToolUse());
    expect(result.decision).toBe('deny');
    expect(good.onHookFinished).toHaveBeenCalledTimes(1);
  });

  it('reports started and finished records with ids, agent, source, input and duration', async () => {
    const started: HookRunRecord[] = [];
    const finished: HookRunRecord[] = [];
    const { runner, add } = setup({ observers: [{ onHookStarted: (r) => void started.push(r), onHookFinished: (r) => void finished.push(r) }] });
    add({
      action: fakeAction({ label: 'cmd', delayMs: 5, result: { raw: { stdout: '', stderr: 'x', exitCode: 0 } } }),
      source: fileSource('hooks.PreToolUse[0].hooks[0]'),
    });
    const sub = { ...env, agent_id: 'a-7', parent_agent_id: 'agent-main', agent_type: 'Explore' };
    const result = await runner.run('PreToolUse', preToolUse('Bash', { command: 'ls' }, sub));
    expect(started[0]).toMatchObject({
      status: 'running',
      event: 'PreToolUse',
      agentId: 'a-7',
      parentAgentId: 'agent-main',
      agentType: 'Explore',
      matchValue: 'Bash',
      hookLabel: 'cmd',
      actionKind: 'command',
      sessionId: 's-1',
    });
    expect(finished[0]).toMatchObject({ status: 'ok', runId: started[0]?.runId, occurrenceId: result.occurrenceId, raw: { stderr: 'x', exitCode: 0 } });
    expect(finished[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(finished[0]?.source).toMatchObject({ kind: 'file', jsonPath: 'hooks.PreToolUse[0].hooks[0]' });
    expect(started[0]?.runId).toMatch(/^hr-[0-9a-f]{8}-\d+$/);
    expect(result.occurrenceId).toMatch(/^ho-[0-9a-f]{8}-\d+$/);
  });
});

describe('HookRunner: ask is data', () => {
  it('returns ask with the hooks that asked, and asks nobody', async () => {
    const finished: HookRunRecord[] = [];
    const { runner, fn } = setup({ observers: [{ onHookFinished: (r) => void finished.push(r) }] });
    fn('ask1', ask('touches prod'));
    fn('ask2', ask('large diff'));
    fn('ok', allow());
    const result = await runner.run('PreToolUse', preToolUse('Bash', { command: 'deploy' }));
    expect(result).toMatchObject({ decision: 'ask', asked: false, reason: 'touches prod', decidedBy: { kind: 'hook', hookLabel: 'ask1' } });
    expect(result.askedBy?.map((r) => r.hookLabel)).toEqual(['ask1', 'ask2']);
    expect(result.records.map((r) => r.status)).toEqual(['asked', 'asked', 'ok']);
    expect(finished).toHaveLength(3);
  });
});

describe('HookRunner: registry snapshots', () => {
  it('a config swap during an in-flight run does not affect that run', async () => {
    const { registry, runner } = setup();
    const old1 = fakeAction({ label: 'old-1', delayMs: 30, outcome: addContext('old-1') });
    const old2 = fakeAction({ label: 'old-2', outcome: addContext('old-2') });
    const fresh = fakeAction({ label: 'new', outcome: addContext('new') });
    registry.setConfigHooks(1, [
      { event: 'PreToolUse', action: old1, source: fileSource('hooks.PreToolUse[0].hooks[0]'), priority: 1 },
      { event: 'PreToolUse', action: old2, source: fileSource('hooks.PreToolUse[1].hooks[0]') },
    ]);
    const inFlight = runner.run('PreToolUse', preToolUse());
    await delay(5);
    registry.setConfigHooks(2, [{ event: 'PreToolUse', action: fresh, source: fileSource('hooks.PreToolUse[0].hooks[0]') }]);
    const first = await inFlight;
    expect(first.additionalContext).toEqual(['old-1', 'old-2']);
    expect(first.records.map((r) => r.configGeneration)).toEqual([1, 1]);
    const second = await runner.run('PreToolUse', preToolUse());
    expect(second.additionalContext).toEqual(['new']);
    expect(fresh.runs).toBe(1);
  });

  it('SubagentStart matcher tests agent_type', async () => {
    const { runner, fn } = setup();
    fn('explore', addContext('for explore'), { event: 'SubagentStart' as HookEvent, matcher: compileClaudeMatcher('Explore') });
    const sub = { ...env, agent_id: 'a-2', parent_agent_id: 'agent-main', agent_type: 'Explore' };
    expect((await runner.run('SubagentStart', forEvent('SubagentStart', sub))).additionalContext).toEqual(['for explore']);
    expect((await runner.run('SubagentStart', forEvent('SubagentStart', { ...sub, agent_type: 'Plan' }))).records).toEqual([]);
  });
});

describe('HookRunner: background (async) hooks', () => {
  it('the event does not wait for them, their deny decides nothing, and their context is delivered once, to their session', async () => {
    let release: (() => void) | undefined;
    const { runner, add, fn } = setup();
    add({
      background: true,
      action: callableAction(
        () =>
          new Promise<HookOutcome>(
            (resolve) => (release = () => resolve({ ...block('too late to block'), additionalContext: 'lint: 2 warnings', systemMessage: 'lint finished' })),
          ),
        { label: 'lint (async)' },
      ),
    });
    fn('sync audit', {});
    const result = await runner.run('PreToolUse', preToolUse());
    // The event settled while the background hook was still running.
    expect(release).toBeDefined();
    expect(result.decision).toBeUndefined();
    expect(result.records.map((r) => r.hookLabel)).toEqual(['sync audit']);
    expect(runner.takeBackgroundOutput(String(env.session_id))).toEqual([]);

    release?.();
    await runner.settleBackground();
    expect(runner.takeBackgroundOutput('another session')).toEqual([]);
    expect(runner.takeBackgroundOutput(String(env.session_id))).toEqual([
      { sessionId: env.session_id, event: 'PreToolUse', hookLabel: 'lint (async)', additionalContext: 'lint: 2 warnings', systemMessage: 'lint finished' },
    ]);
    expect(runner.takeBackgroundOutput(String(env.session_id))).toEqual([]);
  });

  it('are reported to observers like any run, and identical async commands are not deduplicated', async () => {
    const finished: HookRunRecord[] = [];
    const { runner, add } = setup({ observers: [{ onHookFinished: (r) => finished.push(r) }] });
    const a = fakeAction({ label: 'log.sh', dedupKey: 'log.sh' });
    const b = fakeAction({ label: 'log.sh', dedupKey: 'log.sh' });
    add({ background: true, action: a });
    add({ background: true, action: b });
    await runner.run('PreToolUse', preToolUse());
    await runner.settleBackground();
    expect([a.runs, b.runs]).toEqual([1, 1]);
    expect(finished.map((r) => [r.hookLabel, r.status])).toEqual([
      ['log.sh', 'ok'],
      ['log.sh', 'ok'],
    ]);
  });

  it('a Stop of the turn does not cancel them; their own timeout still applies', async () => {
    const finished: HookRunRecord[] = [];
    const { runner, add } = setup({ observers: [{ onHookFinished: (r) => finished.push(r) }] });
    add({ background: true, timeoutMs: 50, action: fakeAction({ label: 'hangs', hang: true }) });
    add({ background: true, action: fakeAction({ label: 'slow', delayMs: 30, outcome: addContext('slow done') }) });
    const controller = new AbortController();
    const pending = runner.run('PreToolUse', preToolUse(), { signal: controller.signal });
    controller.abort();
    await pending;
    await runner.settleBackground();
    expect(finished.map((r) => [r.hookLabel, r.status]).sort()).toEqual([
      ['hangs', 'timed-out'],
      ['slow', 'ok'],
    ]);
    expect(runner.takeBackgroundOutput(String(env.session_id)).map((o) => o.additionalContext)).toEqual(['slow done']);
  });
});
