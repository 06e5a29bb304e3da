import * as vscode from 'vscode';
import type { FromWebviewMessage } from '../../shared/webviewProtocol';

/** What the edit review buttons send (Open Diff, Keep / Undo, Restore Checkpoint). */
export type EditReviewRequest = Extract<FromWebviewMessage, { type: 'openDiff' | 'reviewEdits' | 'restoreCheckpoint' }>;

/** A prompt as sent: the user's text and the reminder texts of its attachments (they go before it, to the model only). */
export interface ChatSubmission {
  readonly prompt: string;
  readonly context: readonly string[];
  /** The files attached (absolute paths): their nested CLAUDE.md and `paths:` rules load as for a read. */
  readonly files?: readonly string[];
}

/**
 * What the user asks of the rest of the extension from the chat, one emitter each; the
 * chat's public `onDid…` events are theirs. Disposing ends every emitter.
 */
export class ChatRequests implements vscode.Disposable {
  readonly submitted = new vscode.EventEmitter<ChatSubmission>();
  readonly modelPick = new vscode.EventEmitter<void>();
  readonly stopped = new vscode.EventEmitter<void>();
  readonly newChat = new vscode.EventEmitter<void>();
  readonly historyRequested = new vscode.EventEmitter<void>();
  readonly resumeRequested = new vscode.EventEmitter<string>();
  readonly setupRequested = new vscode.EventEmitter<void>();
  readonly editReviewRequested = new vscode.EventEmitter<EditReviewRequest>();

  dispose(): void {
    for (const emitter of [
      this.submitted,
      this.modelPick,
      this.stopped,
      this.newChat,
      this.historyRequested,
      this.resumeRequested,
      this.setupRequested,
      this.editReviewRequested,
    ])
      emitter.dispose();
  }
}
