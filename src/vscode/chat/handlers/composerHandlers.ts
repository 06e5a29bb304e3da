import * as vscode from 'vscode';
import type { ChatAttachment, ChatEvent, FromWebviewMessage } from '../../../shared/webviewProtocol';
import { ChatContext, resolveContext, toAttachment, type ReadPolicy } from '../chatContext';
import type { ChatSubmission } from '../chatRequests';
import type { ContextItem } from '../contextAttachment';
import type { EditorSelectionTracker } from '../editorSelectionTracker';
import { parseMentions } from '../promptMentions';
import type { ChatMessageHandlers } from './chatMessageHandlers';

/** What the composer's handlers read and change. */
export interface ComposerDeps {
  /** The attachments of the next prompt. */
  readonly context: ChatContext;
  readonly selection: EditorSelectionTracker;
  readonly readPolicy: () => ReadPolicy | undefined;
  /** Adds one attachment and shows its chip (warns when there are too many). */
  readonly addContext: (item: ContextItem) => void;
  /** Shows the attachment chips as they are now. */
  readonly postAttachments: () => void;
  /** Shows a message in the conversation (kept for a re-created view). */
  readonly postChatEvent: (event: ChatEvent) => void;
  readonly pickContext: () => Promise<void>;
  readonly submit: (submission: ChatSubmission) => void;
  readonly log?: vscode.LogOutputChannel | undefined;
}

/** The input box: sending a prompt, its attachments (added, removed, dropped) and Insert at Cursor. */
export function composerHandlers(deps: ComposerDeps): Pick<ChatMessageHandlers, 'submit' | 'addContext' | 'removeAttachment' | 'dropUris' | 'insertCode'> {
  return {
    submit: (message) => void submit(deps, message),
    addContext: () => void deps.pickContext(),
    removeAttachment: (message) => {
      deps.context.remove(message.id);
      deps.postAttachments();
    },
    dropUris: (message) => void attachDropped(deps, message.uris),
    insertCode: (message) => void insertCode(deps, message.text),
  };
}

/** Shows the prompt with its chips everywhere, then hands it on with the attachments' texts. */
async function submit(deps: ComposerDeps, message: Extract<FromWebviewMessage, { type: 'submit' }>): Promise<void> {
  const items = deps.context.take();
  if (message.includeEditorSelection !== false) items.unshift(...deps.selection.items());
  for (const mention of parseMentions(message.prompt)) {
    if (mention.kind === 'selection') items.push(...deps.selection.items());
    else if (mention.kind === 'problems') items.push(ChatContext.problemsItem());
    else {
      const uri = resolveWorkspacePath(mention.path);
      const item = uri ? await ChatContext.uriItem(uri) : undefined;
      if (item?.kind === 'file' && mention.startLine !== undefined)
        items.push({ ...item, startLine: mention.startLine, endLine: mention.endLine ?? mention.startLine });
      else if (item) items.push(item);
    }
  }
  const unique = dedupe(items);
  const attachments: ChatAttachment[] = unique.map((item, i) => toAttachment(`sent${i}`, item));
  deps.postAttachments();
  deps.postChatEvent({ type: 'userPrompt', text: message.prompt, ...(attachments.length > 0 ? { attachments } : {}) });
  let context: string[] = [];
  const refused: string[] = [];
  const files: string[] = [];
  try {
    context = await resolveContext(unique, deps.readPolicy(), refused, files);
  } catch (error) {
    deps.log?.warn(`chat: attachments could not be read (${String(error)})`);
  }
  if (refused.length > 0) void vscode.window.showWarningMessage(`Hookwise: not attached, a permission rule denies reading: ${refused.join(', ')}`);
  deps.submit({ prompt: message.prompt, context, files });
}

async function attachDropped(deps: ComposerDeps, uris: readonly string[]): Promise<void> {
  for (const raw of uris) {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.parse(raw.trim(), true);
    } catch {
      continue;
    }
    // Only files the editor can open: no web links.
    if (uri.scheme === 'http' || uri.scheme === 'https') continue;
    const item = await ChatContext.uriItem(uri);
    if (item) deps.addContext(item);
    else deps.log?.warn(`chat: dropped ${raw} cannot be attached (not found)`);
  }
}

/** Insert at Cursor: replaces the selection of the editor the user last worked in. */
async function insertCode(deps: ComposerDeps, text: string): Promise<void> {
  const editor = deps.selection.snapshot;
  const target = editor ? vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === editor.uri.toString()) : undefined;
  if (!target) {
    void vscode.window.showInformationMessage('Hookwise: open an editor to insert the code into.');
    return;
  }
  await target.edit((b) => b.replace(target.selection, text));
}

/** A `#file:` path: absolute, or relative to the first workspace folder. */
function resolveWorkspacePath(path: string): vscode.Uri | undefined {
  if (/^(\/|[a-zA-Z]:[\\/])/.test(path)) return vscode.Uri.file(path);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, path) : undefined;
}

function dedupe(items: readonly ContextItem[]): ContextItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key =
      item.kind === 'problems'
        ? 'problems'
        : item.kind === 'terminal'
          ? `t:${item.name}:${item.output.length}`
          : JSON.stringify([item.kind, item.path, 'startLine' in item ? item.startLine : 0, 'endLine' in item ? item.endLine : 0]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
