import type { FromWebviewMessage } from '../../src/shared/webviewProtocol';
import { createCompletionList, type CompletionList } from './completionList';

/**
 * `#` completion in the prompt: typing `#` lists `#file`, `#selection`, `#problems`; after
 * `#file:` the extension searches the workspace's files (completionList.ts draws the list).
 */
export type Mentions = CompletionList;

/** The `#token` being typed just before the caret, if any. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const m = /(^|\s)#([\w:./"-]*)$/.exec(text.slice(0, caret));
  if (!m) return undefined;
  return { start: caret - (m[2] ?? '').length - 1, query: m[2] ?? '' };
}

export function createMentions(input: HTMLTextAreaElement, list: HTMLElement, send: (m: FromWebviewMessage) => void): Mentions {
  return createCompletionList({
    input,
    list,
    idPrefix: 'mention',
    tokenAt: mentionAt,
    request: (requestId, query) => send({ type: 'mentionQuery', requestId, query }),
  });
}
