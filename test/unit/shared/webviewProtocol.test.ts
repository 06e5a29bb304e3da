import { describe, expect, it } from 'vitest';
import { chatEventSchema, parseFromWebview, toWebviewSchema } from '../../../src/shared/webviewProtocol';
import { ChatEventLog } from '../../../src/vscode/chat/chatEventLog';

describe('webview protocol', () => {
  it('accepts every inbound message type', () => {
    for (const message of [
      { type: 'ready' },
      { type: 'submit', prompt: 'run the tests' },
      { type: 'stop' },
      { type: 'newChat' },
      { type: 'showHistory' },
      { type: 'resumeSession', id: 'abc' },
      { type: 'openSetup' },
      { type: 'noticeAction', noticeId: 'n1', actionId: 'playground' },
      { type: 'copyText', text: 'npm test' },
    ]) {
      expect(parseFromWebview(message)).toEqual({ ok: true, message });
    }
  });

  it('rejects invalid inbound messages with a reason, never throwing', () => {
    const cases: unknown[] = [
      undefined,
      null,
      42,
      'submit',
      {},
      { type: 'nope' },
      { type: 'submit' },
      { type: 'submit', prompt: '' },
      { type: 'submit', prompt: 7 },
      { type: 'resumeSession', id: '' },
    ];
    for (const data of cases) {
      const parsed = parseFromWebview(data);
      expect(parsed.ok, JSON.stringify(data)).toBe(false);
      if (!parsed.ok) expect(parsed.error.length).toBeGreaterThan(0);
    }
    const bad = parseFromWebview({ type: 'submit', prompt: 7 });
    expect(bad.ok === false && bad.error).toMatch(/prompt/);
  });

  it('strips unknown keys from inbound messages', () => {
    expect(parseFromWebview({ type: 'stop', evil: '<script>' })).toEqual({ ok: true, message: { type: 'stop' } });
  });

  it('describes every outbound message', () => {
    const messages = [
      { type: 'init', modelLabel: 'Playground (scripted)', busy: false, events: [{ type: 'userPrompt', text: 'hi' }] },
      { type: 'agentEvent', event: { type: 'toolStatus', agentId: 'main', toolUseId: 't1', status: 'denied', verdict: 'Blocked by …', verdictBlocks: true } },
      { type: 'sessionReset' },
      { type: 'history', sessions: [{ id: 's1', title: 'Fix tests', updatedAt: 1 }] },
      { type: 'busy', busy: true },
      { type: 'modelLabel', label: 'gpt-4.1' },
      { type: 'notice', notice: { id: 'n1', text: 'No model configured', actions: [{ id: 'playground', label: 'Use Playground' }] } },
      { type: 'notice' },
    ];
    for (const m of messages) expect(toWebviewSchema.safeParse(m).success, JSON.stringify(m)).toBe(true);
    expect(chatEventSchema.safeParse({ type: 'toolStatus', agentId: 'main', toolUseId: 't', status: 'exploded' }).success).toBe(false);
  });
});

describe('ChatEventLog', () => {
  it('coalesces consecutive text deltas of one agent and bounds its size', () => {
    const log = new ChatEventLog(3);
    log.add({ type: 'text', agentId: 'main', delta: 'Hel' });
    log.add({ type: 'text', agentId: 'main', delta: 'lo' });
    log.add({ type: 'text', agentId: 'sub', delta: '!' });
    expect(log.snapshot()).toEqual([
      { type: 'text', agentId: 'main', delta: 'Hello' },
      { type: 'text', agentId: 'sub', delta: '!' },
    ]);
    log.add({ type: 'userPrompt', text: 'a' });
    log.add({ type: 'userPrompt', text: 'b' });
    expect(log.size).toBe(3);
    expect(log.snapshot()[0]).toEqual({ type: 'text', agentId: 'sub', delta: '!' });
    log.clear();
    expect(log.snapshot()).toEqual([]);
  });
});
