import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../../src/agent/session';
import type { ModelMessage } from '../../../../src/model/modelClient';
import type { ChatEvent } from '../../../../src/shared/webviewProtocol';
import { ChatPersistence, OPEN_CHAT_FILE, type PersistedChat } from '../../../../src/vscode/chat/chatPersistence';

/** The chat behind its port: what it shows, and who listens for changes. */
class FakeChat implements PersistedChat {
  shown: ChatEvent[] = [];
  private listeners: (() => void)[] = [];
  readonly onDidChangeConversation = (listener: () => void) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
  };
  conversation(): ChatEvent[] {
    return [...this.shown];
  }
  restoreConversation(events: readonly ChatEvent[]): void {
    this.shown = [...events];
    this.changed();
  }
  resetSession(): void {
    this.shown = [];
    this.changed();
  }
  show(event: ChatEvent): void {
    this.shown.push(event);
    this.changed();
  }
  private changed(): void {
    for (const l of this.listeners) l();
  }
}

const messages: ModelMessage[] = [
  { role: 'user', content: 'tidy up' },
  { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'Bash', argumentsText: '{"command":"rm -rf build"}' }] },
  { role: 'tool', toolCallId: 't1', content: 'Blocked', isError: true },
  { role: 'assistant', content: 'Done.' },
];

const live: ChatEvent[] = [
  { type: 'userPrompt', text: 'tidy up' },
  { type: 'toolCall', agentId: 'main', toolUseId: 't1', toolName: 'Bash', summary: 'rm -rf build', input: '{"command":"rm -rf build"}' },
  { type: 'toolStatus', agentId: 'main', toolUseId: 't1', status: 'denied', verdict: 'Blocked by PreToolUse hook block-rm-rf.sh', verdictBlocks: true },
  { type: 'assistantMessage', agentId: 'main', text: 'Done.' },
];

describe('ChatPersistence', () => {
  let dir: string;
  let storageDir: string;
  let current: Session | undefined;
  const warnings: string[] = [];
  /** The current session's id, read through a closure (the compiler narrows `current` after an assignment). */
  const currentId = (): string | undefined => current?.id;
  const session = (id: string): Session => ({ id, messages, transcriptWriter: { filePath: path.join(dir, `${id}.jsonl`) } }) as unknown as Session;
  const make = (chat: FakeChat) =>
    new ChatPersistence({
      chat,
      session: () => current,
      resumeSession: (id) => {
        if (!existsSync(path.join(dir, `${id}.jsonl`))) return Promise.resolve(undefined);
        current = session(id);
        return Promise.resolve({ session: current, messages, skippedLines: 0 });
      },
      showResumedCheckpoints: () => {},
      storageDir,
      log: { warn: (m: string) => warnings.push(m) } as never,
    });

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hookwise-persist-'));
    storageDir = path.join(dir, 'storage');
    current = undefined;
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('at the end of a turn keeps what the chat showed, and a reload (a new window) shows it again', async () => {
    const chat = new FakeChat();
    const persistence = make(chat);
    persistence.setBusy(true);
    current = session('s1');
    writeFileSync(path.join(dir, 's1.jsonl'), '');
    for (const e of live) chat.show(e);
    persistence.setBusy(false);
    persistence.dispose();

    current = undefined;
    const reloaded = new FakeChat();
    await make(reloaded).restoreOpenChat();
    expect(reloaded.shown).toEqual(live);
    expect(currentId()).toBe('s1');
  });

  it('after New Chat a reload opens an empty chat', async () => {
    const chat = new FakeChat();
    const persistence = make(chat);
    current = session('s1');
    writeFileSync(path.join(dir, 's1.jsonl'), '');
    for (const e of live) chat.show(e);
    persistence.setBusy(false);
    expect(existsSync(path.join(storageDir, OPEN_CHAT_FILE))).toBe(true);
    persistence.forget();
    current = undefined;
    chat.resetSession();

    const reloaded = new FakeChat();
    await make(reloaded).restoreOpenChat();
    expect(reloaded.shown).toEqual([]);
    expect(currentId()).toBeUndefined();
  });

  it('a corrupt record reopens the chat from the transcript with a notice, and a vanished session is forgotten', async () => {
    writeFileSync(path.join(dir, 's1.jsonl'), '');
    writeFileSync(path.join(dir, 's1.chat.json'), '{"version":1,');
    const chat = new FakeChat();
    const persistence = make(chat);
    expect(await persistence.resume('s1')).toBe(true);
    expect(chat.shown[0]).toEqual({ type: 'userPrompt', text: 'tidy up' });
    expect(chat.shown.at(-1)).toMatchObject({ type: 'systemMessage', text: expect.stringMatching(/saved display is not valid JSON/) });
    expect(warnings.join('\n')).toMatch(/display record of session s1 is not valid JSON/);
    // The record is written again from what is shown now: the next resume has no notice to give.
    expect(JSON.parse(readFileSync(path.join(dir, 's1.chat.json'), 'utf8'))).toMatchObject({ sessionId: 's1', transcriptMessages: 4 });

    rmSync(path.join(dir, 's1.jsonl'));
    current = undefined;
    await make(new FakeChat()).restoreOpenChat();
    expect(existsSync(path.join(storageDir, OPEN_CHAT_FILE))).toBe(false);
  });
});
