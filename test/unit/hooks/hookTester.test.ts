import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentHookAction } from '../../../src/agent/agentHookAction';
import { PlaygroundModelClient } from '../../../src/model/playgroundModelClient';
import { parsePlaygroundScript } from '../../../src/model/playgroundScript';
import { CommandHookAction } from '../../../src/hooks/actions/commandHookAction';
import type { HookAction } from '../../../src/hooks/hookAction';
import { testHookAction } from '../../../src/hooks/hookTester';

const where = { cwd: '/tmp', projectDir: '/tmp', sessionId: 's' };

function playground(script: unknown): PlaygroundModelClient {
  const parsed = parsePlaygroundScript(script);
  if (!parsed.ok) throw new Error(parsed.error);
  return new PlaygroundModelClient(parsed.script, { chunkDelayMs: 0 });
}

describe('testHookAction', () => {
  it('runs one hook against an input JSON; the event comes from hook_event_name', async () => {
    const record = await testHookAction(new CommandHookAction('cat >/dev/null; echo "Blocked" >&2; exit 2'), { hook_event_name: 'Stop' }, where);
    expect(record.result).toMatchObject({ status: 'ok', outcome: { decision: 'continue', reason: 'Blocked' }, raw: { exitCode: 2 } });
    expect(record.timedOut).toBe(false);
    expect(record.durationMs).toBeGreaterThan(0);
  });
  it('an explicit event wins over the input', async () => {
    const record = await testHookAction(new CommandHookAction('exit 2'), { hook_event_name: 'Stop' }, { ...where, event: 'PreToolUse' });
    expect(record.result.outcome.decision).toBe('deny');
  });
  it('no usable event → failed record, nothing run', async () => {
    const record = await testHookAction(new CommandHookAction('touch /tmp/should-not-run'), { hook_event_name: 'Nope' }, where);
    expect(record.result).toMatchObject({ status: 'failed', error: 'cannot tell which event to test: the input has no valid "hook_event_name" (got "Nope")' });
  });
  it('the caller cancelling is not a timeout', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const record = await testHookAction(
      new CommandHookAction('sleep 100'),
      { hook_event_name: 'PreToolUse' },
      { ...where, signal: controller.signal, timeoutMs: 10_000 },
    );
    expect(record).toMatchObject({ timedOut: false, result: { status: 'cancelled' } });
  });
  it('an action that ignores its signal still yields a record after the grace period', async () => {
    const stubborn: HookAction = { kind: 'callable', label: 'stubborn', defaultTimeoutMs: 1000, run: () => new Promise(() => undefined) };
    const record = await testHookAction(stubborn, { hook_event_name: 'PreToolUse' }, { ...where, timeoutMs: 50 });
    expect(record.timedOut).toBe(true);
    expect(record.result.status).toBe('cancelled');
    expect(record.result.error).toMatch(/did not stop within/);
  }, 10_000);
  it('an action that throws (contract breach) becomes a failed record', async () => {
    const broken: HookAction = { kind: 'callable', label: 'broken', defaultTimeoutMs: 1000, run: () => Promise.reject(new Error('bug')) };
    expect((await testHookAction(broken, { hook_event_name: 'PreToolUse' }, where)).result).toMatchObject({ status: 'failed', error: 'the hook threw: bug' });
  });
  it('an agent hook reads the workspace with its read-only tools and blocks when the condition fails', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hw-agent-hook-'));
    writeFileSync(path.join(dir, 'notes.md'), 'TODO: write tests\n');
    const model = playground({
      turns: [{ toolCalls: [{ name: 'Read', input: { file_path: 'notes.md' } }] }, { text: '{"ok": false, "reason": "notes.md still has a TODO"}' }],
    });
    const action = new AgentHookAction('Are all TODOs in notes.md done?', model);
    expect(action).toMatchObject({ kind: 'agent', dedupKey: 'agent:Are all TODOs in notes.md done?', defaultTimeoutMs: 60_000 });
    const record = await testHookAction(action, { hook_event_name: 'Stop', transcript_path: '' }, { cwd: dir, projectDir: dir, sessionId: 's' });
    expect(record.result).toMatchObject({
      status: 'ok',
      outcome: { decision: 'continue', reason: 'Agent hook condition was not met: notes.md still has a TODO' },
    });
    // The agent really read the file: its second model call carried the Read result.
    expect(model.turnsUsed).toBe(2);
  });
  it('an agent hook whose answer is prose is a failure, not a decision', async () => {
    const model = playground({ turns: [{ text: 'Looks good to me!' }] });
    const record = await testHookAction(new AgentHookAction('Check it', model), { hook_event_name: 'PreToolUse' }, where);
    expect(record.result).toMatchObject({ status: 'failed', error: expect.stringContaining('not JSON') });
  });
});
