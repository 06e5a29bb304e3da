import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvents';
import { ask } from '../../../src/hooks/hookOutcome';
import { outcomeWord } from '../../../src/hooks/hookRunStats';
import type { HookRunRecord, PermissionAnswer } from '../../../src/hooks/hookRunTypes';
import type { AgentHarness } from './agentHarness';
import { bash, makeAgentHarness } from './agentHarness';

// Stop reads "cancelled" on the card, the word Hook Runs uses for the hooks a Stop cut short:
// the call was neither denied by anyone nor a failure of its tool.

let h: AgentHarness;
beforeEach(async () => {
  h = await makeAgentHarness();
});
afterEach(async () => {
  await h.cleanup();
});

function lastStatus(events: readonly AgentEvent[]): Extract<AgentEvent, { type: 'toolStatus' }> | undefined {
  return events.filter((e): e is Extract<AgentEvent, { type: 'toolStatus' }> => e.type === 'toolStatus').at(-1);
}

describe('a tool call cut short by Stop', () => {
  it('while the approval is open: cancelled, with no verdict naming a denier, and the model is told the user stopped it', async () => {
    const stop = new AbortController();
    // The person never answers; they press Stop instead.
    const provider = {
      requestPermission: (_request: unknown, signal: AbortSignal): Promise<PermissionAnswer> => {
        stop.abort();
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ decision: 'deny' }), { once: true }));
      },
    };
    const { events, result, conversation } = await h.run([bash('touch never'), { text: 'unreachable' }], { provider, signal: stop.signal });
    expect(result.status).toBe('cancelled');
    const status = lastStatus(events);
    expect(status).toMatchObject({ status: 'cancelled', result: 'Bash was not run: stopped by the user.' });
    expect(status?.verdict).toBeUndefined();
    expect(conversation.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'Bash was not run: stopped by the user.', isError: true });
  });

  it('while its tool runs: cancelled, not failed', async () => {
    const stop = new AbortController();
    const started = path.join(h.dir, 'started');
    const run = h.run([bash(`touch '${started}'; sleep 30`), { text: 'unreachable' }], { mode: 'bypassPermissions', signal: stop.signal });
    // Stop once the command is running, not after a guessed delay.
    await vi.waitFor(() => expect(existsSync(started)).toBe(true), { timeout: 20_000, interval: 20 });
    stop.abort();
    const { events, result } = await run;
    expect(result.status).toBe('cancelled');
    expect(lastStatus(events)?.status).toBe('cancelled');
  });

  it("while a hook's ask waits for the person: Hook Runs says the ask was cancelled, not denied", async () => {
    h.hooks.onPreToolUse(() => ask('deploys need a look'));
    // What Hook Runs gets once the gate settled the ask.
    const resolved: HookRunRecord[] = [];
    h.runner.addObserver({ onAskResolved: (record) => void resolved.push(record) });
    const stop = new AbortController();
    const provider = {
      requestPermission: (_request: unknown, signal: AbortSignal): Promise<PermissionAnswer> => {
        stop.abort();
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ decision: 'deny' }), { once: true }));
      },
    };
    const { events } = await h.run([bash('touch never'), { text: 'unreachable' }], { provider, signal: stop.signal });
    expect(lastStatus(events)?.status).toBe('cancelled');
    const asked = resolved.at(-1);
    expect(asked?.permission).toMatchObject({ decision: 'deny', cancelled: true });
    expect(asked && outcomeWord(asked)).toBe('asked → cancelled');
  });
});
