import { describe, expect, it, vi } from 'vitest';
import { HookInputs } from '../../../src/agent/hookInputs';
import { askPolicy, PermissionGate } from '../../../src/agent/permissionGate';
import type { RunContext } from '../../../src/agent/runContext';
import { createTodoStore } from '../../../src/agent/tools/todoStore';
import { callableAction } from '../../../src/hooks/callableAction';
import { PlaygroundModelClient } from '../../../src/model/playgroundModelClient';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import type { HookRegistrationInit } from '../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../src/hooks/hookRunner';
import type { HookOutcome } from '../../../src/hooks/hookOutcome';
import { ask } from '../../../src/hooks/hookOutcome';
import type { HookRunObserver, HookRunRecord, PermissionProvider, PermissionRequest } from '../../../src/hooks/hookRunTypes';
import { codeSource, preToolUse } from '../hooks/helpers';

/** The real runner and one agent's gate over it (the agent of the helpers' inputs). */
function setup(o: { provider?: PermissionProvider; fallback?: 'allow' | 'deny'; observers?: HookRunObserver[]; registry?: HookRegistry } = {}) {
  const registry = o.registry ?? new HookRegistry();
  const runner = new HookRunner(registry, { projectDir: '/work/project', ...(o.observers ? { observers: o.observers } : {}) });
  const agent = { agentId: 'agent-main', parentAgentId: null, agentType: 'main' } as const;
  const inputs = new HookInputs({ ...agent, sessionId: 's-1', transcriptPath: '/tmp/s-1.jsonl', cwd: '/work/project', permissionMode: 'default' });
  const ctx: RunContext = {
    sessionId: 's-1',
    cwd: '/work/project',
    projectDir: '/work/project',
    model: new PlaygroundModelClient({ turns: [] }),
    hooks: runner,
    permissionMode: 'default',
    asks: askPolicy(o.provider, o.fallback),
    emit: () => undefined,
    todos: createTodoStore(),
    sessionTranscriptPath: '/tmp/s-1.jsonl',
    subagents: { agents: [], maxDepth: 0, baseTools: [], transcriptDir: '/tmp' },
  };
  const gate = PermissionGate.forAgent(ctx, agent, inputs);
  const fn = (label: string, outcome: HookOutcome | (() => HookOutcome), init: Partial<HookRegistrationInit> = {}) =>
    registry.register({
      event: 'PreToolUse',
      source: codeSource,
      action: callableAction(typeof outcome === 'function' ? outcome : () => outcome, { label }),
      ...init,
    });
  return { registry, runner, gate, fn };
}

function provider(
  answer: (req: PermissionRequest, signal: AbortSignal) => ReturnType<PermissionProvider['requestPermission']>,
): PermissionProvider & { calls: PermissionRequest[] } {
  const calls: PermissionRequest[] = [];
  return {
    calls,
    requestPermission(req, signal) {
      calls.push(req);
      return answer(req, signal);
    },
  };
}

describe("PermissionGate: a hook's ask (moved from the HookRunner, which now returns ask as data)", () => {
  it('asks the provider once, naming the asking hooks, and returns its deny', async () => {
    const p = provider(async () => ({ decision: 'deny', reason: 'user said no' }));
    const resolved: HookRunRecord[] = [];
    const { gate, fn } = setup({ provider: p, observers: [{ onAskResolved: (r) => void resolved.push(r) }] });
    fn('ask1', ask('touches prod'));
    fn('ask2', ask('large diff'));
    const result = await gate.run('PreToolUse', preToolUse('Bash', { command: 'deploy' }));
    expect(p.calls).toHaveLength(1);
    expect(p.calls[0]).toMatchObject({
      kind: 'hook',
      event: 'PreToolUse',
      toolName: 'Bash',
      toolInput: { command: 'deploy' },
      reason: 'touches prod\nlarge diff',
    });
    expect(p.calls[0]?.askedBy.map((a) => a.hookLabel)).toEqual(['ask1', 'ask2']);
    // The reason stays the hooks' (what the model is told); the person's words are the decider's detail.
    expect(result).toMatchObject({ decision: 'deny', asked: true, decidedBy: { kind: 'user', detail: 'user said no' }, reason: 'touches prod\nlarge diff' });
    expect(resolved.map((r) => r.permission)).toEqual([
      { decision: 'deny', decidedBy: 'user', reason: 'user said no' },
      { decision: 'deny', decidedBy: 'user', reason: 'user said no' },
    ]);
    expect(result.records.every((r) => r.status === 'asked' && r.permission?.decision === 'deny')).toBe(true);
  });

  it('an allowed ask keeps the rewritten input', async () => {
    const { gate, fn } = setup({ provider: provider(async () => ({ decision: 'allow' })) });
    fn('ask', { decision: 'ask', reason: 'sure?', updatedInput: { command: 'ls -la' } });
    const result = await gate.run('PreToolUse', preToolUse());
    expect(result).toMatchObject({ decision: 'allow', asked: true, updatedInput: { command: 'ls -la' } });
  });

  it('an ask on an event without decision control (CwdChanged, InstructionsLoaded) is put to nobody', async () => {
    const p = provider(async () => ({ decision: 'deny', reason: 'no' }));
    const { gate, fn } = setup({ provider: p });
    fn('asks on cwd', ask('?'), { event: 'CwdChanged' });
    fn('asks on memory', ask('?'), { event: 'InstructionsLoaded' });
    const cwd = await gate.run('CwdChanged', { hook_event_name: 'CwdChanged', session_id: 's-1', old_cwd: '/a', new_cwd: '/b' });
    const memory = await gate.run('InstructionsLoaded', { hook_event_name: 'InstructionsLoaded', session_id: 's-1', file_path: '/a/CLAUDE.md' });
    expect(p.calls).toEqual([]);
    expect([cwd.asked ?? false, memory.asked ?? false]).toEqual([false, false]);
  });

  it('without a provider applies askFallback (default deny, or allow when configured)', async () => {
    const a = setup();
    a.fn('ask', ask('?'));
    expect(await a.gate.run('PreToolUse', preToolUse())).toMatchObject({ decision: 'deny', asked: true, decidedBy: { kind: 'fallback' } });
    const b = setup({ fallback: 'allow' });
    b.fn('ask', ask('?'));
    expect(await b.gate.run('PreToolUse', preToolUse())).toMatchObject({ decision: 'allow', asked: true, decidedBy: { kind: 'fallback' } });
  });

  it("each agent's gate asks its own provider over one shared runner (a subagent's, the main agent's)", async () => {
    const mainProvider = provider(async () => ({ decision: 'deny' }));
    const childProvider = provider(async () => ({ decision: 'allow' }));
    const { registry, fn } = setup({ provider: mainProvider });
    fn('ask', ask('?'));
    const child = setup({ provider: childProvider, registry });
    const result = await child.gate.run('PreToolUse', preToolUse());
    expect(result.decision).toBe('allow');
    expect(mainProvider.calls).toHaveLength(0);
  });

  it('an abort while asking is deny, even if the provider never answers', async () => {
    const p = provider(() => new Promise(() => {}));
    const { gate, fn } = setup({ provider: p });
    fn('ask', ask('?'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const result = await gate.run('PreToolUse', preToolUse(), controller.signal);
    expect(result).toMatchObject({ decision: 'deny', asked: true, decidedBy: { kind: 'fallback', detail: 'cancelled' } });
  });

  it('an already aborted signal runs no hook and asks nobody', async () => {
    const p = provider(async () => ({ decision: 'allow' }));
    const { gate, fn } = setup({ provider: p });
    const hook = vi.fn(() => ask('?'));
    fn('ask', hook);
    const result = await gate.run('PreToolUse', preToolUse(), AbortSignal.abort());
    expect(hook).not.toHaveBeenCalled();
    expect(p.calls).toHaveLength(0);
    expect(result.cancelled).toBe(true);
    expect(result.decision).toBeUndefined();
  });

  it('a provider that throws is deny, with the error in the reason', async () => {
    const { gate, fn } = setup({
      provider: provider(async () => {
        throw new Error('webview gone');
      }),
    });
    fn('ask', ask('?'));
    const result = await gate.run('PreToolUse', preToolUse());
    expect(result).toMatchObject({ decision: 'deny', asked: true, decidedBy: { kind: 'fallback' } });
    expect(result.reason).toContain('webview gone');
    expect(result.records[0]?.permission?.reason).toContain('webview gone');
  });
});
