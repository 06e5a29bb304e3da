import type { FromWebviewMessage } from '../../src/shared/webviewProtocol';
import { createCompletionList, type CompletionList } from './completionList';

/**
 * `/` completion in the prompt: typing `/` at the start lists every slash command (built-in,
 * custom, plugin) with its description, narrowed as the name is typed (completionList.ts draws the list).
 */
export type SlashCompletion = CompletionList;

/** The command name being typed: the prompt up to the caret is `/name` (nothing before the slash, no space yet). */
export function commandAt(text: string, caret: number): string | undefined {
  return /^\/([\w:.-]*)$/.exec(text.slice(0, caret))?.[1];
}

export function createSlashCompletion(input: HTMLTextAreaElement, list: HTMLElement, send: (m: FromWebviewMessage) => void): SlashCompletion {
  return createCompletionList({
    input,
    list,
    idPrefix: 'command',
    tokenAt: (text, caret) => {
      const query = commandAt(text, caret);
      return query === undefined ? undefined : { start: 0, query };
    },
    request: (requestId, query) => send({ type: 'commandQuery', requestId, query }),
  });
}
