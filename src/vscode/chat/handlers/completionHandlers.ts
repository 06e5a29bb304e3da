import * as vscode from 'vscode';
import { describeThrown } from '../../../shared/describeThrown';
import type { MentionItem } from '../../../shared/webviewProtocol';
import type { ChatSurface } from '../chatWebviewHost';
import { MENTION_WORDS } from '../promptMentions';
import type { ChatMessageHandlers } from './chatMessageHandlers';

/** Files found per `#file:` completion request. */
const MAX_MENTION_RESULTS = 20;

/** What the completion handlers read and where they answer. */
export interface CompletionDeps {
  readonly post: (message: { type: 'mentionResults' | 'commandResults'; requestId: number; items: MentionItem[] }, surface: ChatSurface) => void;
  /** Every slash command for `/` completion (built-in, custom, plugin); absent = none offered. */
  readonly commandSource: () => (() => Promise<readonly MentionItem[]>) | undefined;
  readonly log?: vscode.LogOutputChannel | undefined;
}

/** `#` mentions and `/` commands as the user types: answered to the surface that asked. */
export function completionHandlers(deps: CompletionDeps): Pick<ChatMessageHandlers, 'mentionQuery' | 'commandQuery'> {
  return {
    mentionQuery: (message, surface) => void answerMention(deps, surface, message.requestId, message.query),
    commandQuery: (message, surface) => void answerCommands(deps, surface, message.requestId, message.query),
  };
}

async function answerCommands(deps: CompletionDeps, surface: ChatSurface, requestId: number, query: string): Promise<void> {
  let all: readonly MentionItem[] = [];
  try {
    all = (await deps.commandSource()?.()) ?? [];
  } catch (error) {
    deps.log?.warn(`chat: slash commands could not be listed (${describeThrown(error)})`);
  }
  const q = query.toLowerCase();
  const items = all.filter((c) => c.label.slice(1).toLowerCase().startsWith(q)).slice(0, MAX_MENTION_RESULTS);
  deps.post({ type: 'commandResults', requestId, items }, surface);
}

async function answerMention(deps: CompletionDeps, surface: ChatSurface, requestId: number, query: string): Promise<void> {
  const items: MentionItem[] = MENTION_WORDS.filter((w) => w.label.startsWith(`#${query}`)).map((w) => ({
    label: w.label,
    detail: w.detail,
    insert: w.insert,
  }));
  const fileQuery = /^file:(.*)$/.exec(query)?.[1];
  if (fileQuery !== undefined) {
    // Letters, digits and path characters only: the query becomes a glob.
    const safe = fileQuery.replace(/[^\w./-]/g, '');
    const uris = await vscode.workspace.findFiles(safe ? `**/*${safe}*` : '**/*', '**/{node_modules,.git}/**', MAX_MENTION_RESULTS);
    for (const uri of uris) {
      const rel = vscode.workspace.asRelativePath(uri, false);
      items.push({ label: rel, detail: 'file', insert: `#file:${/\s/.test(rel) ? `"${rel}"` : rel} ` });
    }
  }
  deps.post({ type: 'mentionResults', requestId, items }, surface);
}
