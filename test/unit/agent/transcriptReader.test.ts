import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TranscriptWriter } from '../../../src/agent/transcript';
import { readTranscript } from '../../../src/agent/transcriptReader';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-transcript-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('an old-format session continued in the new format reads back as one conversation, arguments exactly as the model wrote them', () => {
  const file = path.join(dir, 's1.jsonl');
  writeFileSync(
    file,
    [
      '{"type":"session","session_id":"s1","cwd":"/w"}',
      '{"type":"user","agent_id":"main","content":"first"}',
      '{"type":"assistant","agent_id":"main","content":"old answer"}',
      '',
    ].join('\n'),
  );
  const writer = new TranscriptWriter(file, { sessionId: 's1', cwd: '/w' });
  writer.writeMessage({ role: 'user', content: 'second' });
  writer.writeMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'Bash', argumentsText: '{ "command": "ls" }' }] });
  writer.noteToolResult('c1', { stdout: 'a.txt', stderr: '', interrupted: false, isImage: false, noOutputExpected: false });
  writer.writeMessage({ role: 'tool', toolCallId: 'c1', content: 'a.txt' });
  writer.write({ type: 'hook', agent_id: 'main', event: 'Stop' });
  writer.writeMessage({ role: 'assistant', content: 'new answer' });
  writer.close();

  const loaded = readTranscript(file);

  expect(loaded).toMatchObject({ sessionId: 's1', cwd: '/w', skipped: [] });
  expect(loaded.messages).toEqual([
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'old answer' },
    { role: 'user', content: 'second' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'Bash', argumentsText: '{ "command": "ls" }' }] },
    { role: 'tool', toolCallId: 'c1', content: 'a.txt' },
    { role: 'assistant', content: 'new answer' },
  ]);
});
