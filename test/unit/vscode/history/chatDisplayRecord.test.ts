import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelMessage } from '../../../../src/model/modelClient';
import type { ChatEvent } from '../../../../src/shared/webviewProtocol';
import { restoredChatEvents } from '../../../../src/vscode/chat/chatRestore';
import { displayRecordPath, readDisplayRecord, writeDisplayRecord } from '../../../../src/vscode/history/chatDisplayRecord';

/** What the chat showed live for one turn: a prompt with a chip, a call a hook blocked, the answer. */
const liveTurn = (prompt: string): ChatEvent[] => [
  { type: 'userPrompt', text: prompt, attachments: [{ id: 'sent0', kind: 'file', label: 'greet.js', detail: 'src/greet.js' }] },
  { type: 'runStarted', agent: { agentId: 'main', parentAgentId: null, agentType: 'main' } },
  { type: 'toolCall', agentId: 'main', toolUseId: `t-${prompt}`, toolName: 'Bash', summary: 'rm -rf build', input: '{"command":"rm -rf build"}' },
  {
    type: 'toolStatus',
    agentId: 'main',
    toolUseId: `t-${prompt}`,
    status: 'denied',
    verdict: 'Blocked by PreToolUse hook block-rm-rf.sh: no',
    verdictBlocks: true,
  },
  { type: 'checkpoint', checkpointId: 1 },
  { type: 'assistantMessage', agentId: 'main', text: 'Done.' },
  { type: 'runEnded', agentId: 'main', status: 'completed', steps: 2 },
];

/** The transcript of the same turn: what the model saw. */
const transcriptTurn = (prompt: string): ModelMessage[] => [
  { role: 'user', content: prompt },
  { role: 'assistant', content: '', toolCalls: [{ id: `t-${prompt}`, name: 'Bash', argumentsText: '{"command":"rm -rf build"}' }] },
  { role: 'tool', toolCallId: `t-${prompt}`, content: 'Blocked by hook', isError: true },
  { role: 'assistant', content: 'Done.' },
];

describe('chat display record', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-display-'));
    file = displayRecordPath(path.join(dir, 's1.jsonl'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lives beside the transcript under a name History does not list as a session', () => {
    expect(file).toBe(path.join(dir, 's1.chat.json'));
    expect(file.endsWith('.jsonl')).toBe(false);
  });

  it('round-trips: a resumed chat shows the blocked call with its verdict and the chip, as live', () => {
    writeDisplayRecord(file, { sessionId: 's1', transcriptMessages: 4, events: liveTurn('tidy') });
    const record = readDisplayRecord(file, 's1');
    expect(record.kind).toBe('ok');
    const events = restoredChatEvents({ messages: transcriptTurn('tidy'), skippedLines: 0, record });
    // The checkpoint store adds its own markers after a resume; everything else is as it was shown.
    expect(events).toEqual(liveTurn('tidy').filter((e) => e.type !== 'checkpoint'));
  });

  it("keeps a model-level hook's mark on the reply it concerns across a resume", () => {
    const marked: ChatEvent[] = liveTurn('tidy').flatMap((e): ChatEvent[] =>
      e.type === 'assistantMessage'
        ? [{ type: 'modelHookMarker', agentId: 'main', kind: 'redacted', hook: 'redact.cjs', text: 'Reply redacted by hook "redact.cjs"' }, e]
        : [e],
    );
    writeDisplayRecord(file, { sessionId: 's1', transcriptMessages: 4, events: marked });
    const events = restoredChatEvents({ messages: transcriptTurn('tidy'), skippedLines: 0, record: readDisplayRecord(file, 's1') });
    expect(events).toEqual(marked.filter((e) => e.type !== 'checkpoint'));
  });

  it('adds the turns the transcript has beyond the record (a reload mid-turn) from the transcript', () => {
    writeDisplayRecord(file, { sessionId: 's1', transcriptMessages: 4, events: liveTurn('one') });
    const events = restoredChatEvents({
      messages: [...transcriptTurn('one'), ...transcriptTurn('two')],
      skippedLines: 0,
      record: readDisplayRecord(file, 's1'),
    });
    expect(events.filter((e) => e.type === 'userPrompt').map((e) => (e.type === 'userPrompt' ? e.text : ''))).toEqual(['one', 'two']);
    // The first turn keeps its verdict; the second, from the transcript alone, has none.
    expect(events.filter((e) => e.type === 'toolStatus').map((e) => (e.type === 'toolStatus' ? (e.verdict ?? '') : ''))).toEqual([
      'Blocked by PreToolUse hook block-rm-rf.sh: no',
      '',
    ]);
    expect(events.some((e) => e.type === 'systemMessage')).toBe(false);
  });

  it('a corrupt record degrades to the transcript with a notice that says why, never an empty chat', () => {
    writeFileSync(file, '{"version":1,"sessionId":"s1","transcriptMessages":4,"events":[{"type":"toolStatus"');
    const record = readDisplayRecord(file, 's1');
    expect(record).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^is not valid JSON/) });
    const events = restoredChatEvents({ messages: transcriptTurn('tidy'), skippedLines: 0, record });
    expect(events[0]).toEqual({ type: 'userPrompt', text: 'tidy' });
    expect(events.some((e) => e.type === 'toolCall')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'systemMessage', text: expect.stringMatching(/saved display is not valid JSON .*shown from its transcript/) });
  });

  it('rejects a record whose events do not fit the chat protocol, of another session, or too large', () => {
    writeFileSync(file, JSON.stringify({ version: 1, sessionId: 's1', transcriptMessages: 1, events: [{ type: 'toolStatus', status: 'exploded' }] }));
    expect(readDisplayRecord(file, 's1')).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^is not a display record \(events\.0/) });
    writeDisplayRecord(file, { sessionId: 'other', transcriptMessages: 0, events: [] });
    expect(readDisplayRecord(file, 's1')).toMatchObject({ kind: 'invalid', reason: 'belongs to another session (other)' });
    writeDisplayRecord(file, { sessionId: 's1', transcriptMessages: 0, events: [] });
    expect(readDisplayRecord(file, 's1', 10)).toMatchObject({ kind: 'invalid', reason: 'is larger than 10 bytes' });
    expect(readDisplayRecord(path.join(dir, 'none.chat.json'), 's1')).toEqual({ kind: 'missing' });
  });

  it('a record that no longer matches its transcript (cut elsewhere) shows the transcript with a notice', () => {
    writeDisplayRecord(file, { sessionId: 's1', transcriptMessages: 8, events: [...liveTurn('one'), ...liveTurn('two')] });
    const events = restoredChatEvents({ messages: transcriptTurn('one'), skippedLines: 0, record: readDisplayRecord(file, 's1') });
    expect(events.filter((e) => e.type === 'userPrompt')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'systemMessage', text: expect.stringMatching(/does not match its transcript/) });
  });

  it('stays under its size limit by dropping whole turns from the front, and says so when read back', () => {
    const big = (prompt: string): ChatEvent[] => [...liveTurn(prompt), { type: 'assistantMessage', agentId: 'main', text: 'x'.repeat(3000) }];
    writeDisplayRecord(file, { sessionId: 's1', transcriptMessages: 12, events: [...big('one'), ...big('two'), ...big('three')] }, 8000);
    expect(Buffer.byteLength(readFileSync(file))).toBeLessThanOrEqual(8000);
    const record = readDisplayRecord(file, 's1');
    expect(record.kind === 'ok' && record.record.events[0]).toMatchObject({ type: 'userPrompt', text: 'two' });
    const events = restoredChatEvents({ messages: [...transcriptTurn('one'), ...transcriptTurn('two'), ...transcriptTurn('three')], skippedLines: 0, record });
    expect(events[0]).toMatchObject({ type: 'systemMessage', text: expect.stringMatching(/Earlier turns .* left out/) });
  });

  it('without a record (an older or CLI session) the transcript alone, with no notice; damaged lines are counted', () => {
    const events = restoredChatEvents({ messages: transcriptTurn('tidy'), skippedLines: 2, record: { kind: 'missing' } });
    expect(events.filter((e) => e.type === 'systemMessage')).toEqual([
      { type: 'systemMessage', agentId: 'main', text: '2 damaged transcript line(s) were skipped (see the Hookwise log).', source: 'Hookwise' },
    ]);
  });
});
