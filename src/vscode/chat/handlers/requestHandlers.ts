import * as vscode from 'vscode';
import type { ChatRequests, EditReviewRequest } from '../chatRequests';
import type { ChatSurface } from '../chatWebviewHost';
import type { ChatMessageHandlers } from './chatMessageHandlers';

/** What the request handlers fire and read. */
export interface RequestDeps {
  readonly requests: ChatRequests;
  /** The memory files the chat lists: the only ones it may open. */
  readonly memoryFiles: () => readonly { readonly path: string }[];
  /** The surface that asked for History: the list opens there only. */
  readonly setHistoryTarget: (surface: ChatSurface) => void;
  /** A click on a notice's action (the notice goes when it is the one shown). */
  readonly answerNotice: (noticeId: string, actionId: string) => void;
}

/**
 * The header's, the notices' and the messages' buttons: each becomes a request to the rest
 * of the extension (model pick, stop, new chat, history, setup, edit review) or a small
 * editor action (open a memory file, copy).
 */
export function requestHandlers(
  deps: RequestDeps,
): Omit<ChatMessageHandlers, 'submit' | 'addContext' | 'removeAttachment' | 'dropUris' | 'insertCode' | 'mentionQuery' | 'commandQuery'> {
  const { requests } = deps;
  const editReview = (message: EditReviewRequest): void => requests.editReviewRequested.fire(message);
  return {
    openMemoryFile: (message) => {
      // Only a file the chat listed: a webview message must not open arbitrary paths.
      if (deps.memoryFiles().some((f) => f.path === message.path)) void vscode.window.showTextDocument(vscode.Uri.file(message.path));
    },
    pickModel: () => requests.modelPick.fire(),
    stop: () => requests.stopped.fire(),
    newChat: () => requests.newChat.fire(),
    showHistory: (_message, surface) => {
      deps.setHistoryTarget(surface);
      requests.historyRequested.fire();
    },
    resumeSession: (message) => requests.resumeRequested.fire(message.id),
    openSetup: () => requests.setupRequested.fire(),
    noticeAction: (message) => deps.answerNotice(message.noticeId, message.actionId),
    copyText: (message) => void vscode.env.clipboard.writeText(message.text),
    openDiff: editReview,
    reviewEdits: editReview,
    restoreCheckpoint: editReview,
  };
}
