import type * as vscode from 'vscode';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Session } from '../../agent/session';
import type { ModelMessage } from '../../model/modelClient';
import { describeThrown } from '../../shared/describeThrown';
import type { ChatEvent } from '../../shared/webviewProtocol';
import { displayRecordPath, readDisplayRecord, writeDisplayRecord } from '../history/chatDisplayRecord';
import { restoredChatEvents } from './chatRestore';

/** How long after the last change the record is written (changes come in bursts: a redraw, a summary). */
const SAVE_DELAY_MS = 200;

/** The file in the workspace's storage folder that names the session the chat shows (reopened after a window reload). */
export const OPEN_CHAT_FILE = 'openChat.json';

const openChatSchema = z.object({ sessionId: z.string().min(1).max(200) });

/** The chat as persistence reads and redraws it. */
export interface PersistedChat {
  conversation(): ChatEvent[];
  restoreConversation(events: readonly ChatEvent[]): void;
  resetSession(): void;
  readonly onDidChangeConversation: vscode.Event<void>;
}

/** What persistence works with; the agent side is read lazily (it is created after the chat). */
export interface ChatPersistenceDeps {
  readonly chat: PersistedChat;
  /** The current session, if any. */
  readonly session: () => Session | undefined;
  /** Makes a past session current and returns its conversation; undefined (after a warning) when it cannot. */
  readonly resumeSession: (
    id: string,
    options?: { readonly reopen?: boolean },
  ) => Promise<{ readonly session: Session; readonly messages: readonly ModelMessage[]; readonly skippedLines: number } | undefined>;
  /** Restore Checkpoint on the resumed prompts (the checkpoint store's own markers). */
  readonly showResumedCheckpoints: () => void;
  /**
   * This workspace's storage folder (absent: no folder open, and nothing is reopened). A file
   * written at once, not workspace state: a reload right after a change must see it.
   */
  readonly storageDir: string | undefined;
  readonly log: vscode.LogOutputChannel;
}

/**
 * Keeps the chat's display record of the current session beside its transcript, and brings
 * a chat back from it: on History → resume, and after a window reload (the open session is
 * remembered per workspace). The record is written when the agent is idle and the shown
 * conversation changed, so it never holds half a turn: a turn cut by a reload comes back from
 * the transcript. Resuming fires no hook; the session's next prompt fires SessionStart `resume`.
 */
export class ChatPersistence implements vscode.Disposable {
  private busy = false;
  /** Set while a resume swaps the session: the chat still shows the old one. */
  private restoring = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly deps: ChatPersistenceDeps) {
    // Coalesced: a redraw posts hundreds of events, and the record is written once after them.
    this.subscription = deps.chat.onDidChangeConversation(() => {
      if (!this.busy && !this.timer) this.timer = setTimeout(() => this.save(), SAVE_DELAY_MS);
    });
  }

  /** While the agent works nothing is written; the end of a turn writes the record. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    if (!busy) this.save();
  }

  /**
   * History → resume (or, with `reopen`, the chat coming back after a reload): the chat of
   * session `id` as it looked, from its record and transcript; false when it was not resumed.
   */
  async resume(id: string, reopen = false): Promise<boolean> {
    this.restoring = true;
    try {
      const resumed = await this.deps.resumeSession(id, { reopen });
      if (!resumed) return false;
      const record = readDisplayRecord(displayRecordPath(resumed.session.transcriptWriter.filePath), id);
      if (record.kind === 'invalid') this.deps.log.warn(`chat: the display record of session ${id} ${record.reason}; showing its transcript`);
      this.deps.chat.restoreConversation(restoredChatEvents({ messages: resumed.messages, skippedLines: resumed.skippedLines, record }));
      this.deps.showResumedCheckpoints();
    } finally {
      this.restoring = false;
    }
    this.save();
    return true;
  }

  /** After a window reload: reopens the session the chat showed, if any (a session that is gone is forgotten). */
  async restoreOpenChat(): Promise<void> {
    const id = this.openChat();
    if (id === undefined || this.deps.session()) return;
    // Not resumed: the session is gone, or a new one started meanwhile (it becomes the open chat).
    if (!(await this.resume(id, true)) && !this.deps.session()) this.setOpenChat(undefined);
  }

  /** New Chat: nothing is reopened after a reload until the next session shows. */
  forget(): void {
    this.setOpenChat(undefined);
  }

  dispose(): void {
    this.subscription.dispose();
    if (this.timer) clearTimeout(this.timer);
  }

  /** Writes the current session's record (no session yet: nothing to write); a failure is logged, never thrown. */
  private save(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const session = this.deps.session();
    if (!session || this.restoring || this.busy) return;
    try {
      writeDisplayRecord(displayRecordPath(session.transcriptWriter.filePath), {
        sessionId: session.id,
        transcriptMessages: session.messages.length,
        events: this.deps.chat.conversation(),
      });
    } catch (error) {
      this.deps.log.warn(`chat: the display record of session ${session.id} could not be written (${describeThrown(error)})`);
    }
    if (this.openChat() !== session.id) this.setOpenChat(session.id);
  }

  /** The session named by the open-chat file; undefined when there is none or it is not one. */
  private openChat(): string | undefined {
    if (!this.deps.storageDir) return undefined;
    try {
      const parsed = openChatSchema.safeParse(JSON.parse(readFileSync(path.join(this.deps.storageDir, OPEN_CHAT_FILE), 'utf8')));
      return parsed.success ? parsed.data.sessionId : undefined;
    } catch {
      // Missing or damaged: no chat to reopen.
      return undefined;
    }
  }

  private setOpenChat(sessionId: string | undefined): void {
    const dir = this.deps.storageDir;
    if (!dir) return;
    const file = path.join(dir, OPEN_CHAT_FILE);
    try {
      if (sessionId === undefined) return void rmSync(file, { force: true });
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${file}.tmp`, JSON.stringify({ sessionId }));
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      this.deps.log.warn(`chat: the open chat could not be remembered (${describeThrown(error)})`);
    }
  }
}
