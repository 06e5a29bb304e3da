import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../../src/shared/webviewProtocol';
import { ChatEventLog } from '../../../../src/vscode/chat/chatEventLog';

const prompt = (text: string): ChatEvent => ({ type: 'userPrompt', text });
const usage = (agentId: string, tokens: number): ChatEvent => ({ type: 'usage', agentId, inputTokens: tokens, outputTokens: 1 });
const card = (toolUseId: string): ChatEvent => ({ type: 'toolStatus', agentId: 'main', toolUseId, status: 'done', verdict: 'Allowed by you' });

function log(events: readonly ChatEvent[]): ChatEventLog {
  const l = new ChatEventLog();
  for (const e of events) l.add(e);
  return l;
}

describe('ChatEventLog.rewind (Restore Checkpoint)', () => {
  it('drops the live checkpoint’s prompt and all after it; the earlier events stay as they were', () => {
    const first = [prompt('one'), { type: 'checkpoint', checkpointId: 1 } as ChatEvent, card('a'), usage('main', 100), usage('sub-1', 7)];
    const l = log([...first, prompt('two'), { type: 'checkpoint', checkpointId: 2 }, card('b'), usage('main', 250)]);
    expect(l.lastMainUsage()).toBe(251);
    expect(l.rewind(2)).toBe(true);
    expect(l.snapshot()).toEqual(first);
    // A subagent's call does not move the meter.
    expect(l.lastMainUsage()).toBe(101);
  });

  it('a resumed session’s checkpoint names its prompt by index', () => {
    const l = log([prompt('one'), card('a'), prompt('two'), card('b'), { type: 'checkpoint', checkpointId: 5, userMessage: 1 }]);
    expect(l.rewind(5)).toBe(true);
    expect(l.snapshot()).toEqual([prompt('one'), card('a')]);
  });

  it('says so when the checkpoint is not in the log, and changes nothing', () => {
    const l = log([prompt('one'), card('a')]);
    expect(l.rewind(3)).toBe(false);
    expect(l.snapshot()).toHaveLength(2);
    expect(l.lastMainUsage()).toBeUndefined();
  });
});
