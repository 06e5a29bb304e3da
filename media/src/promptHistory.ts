/**
 * The prompts sent in this chat, recalled with Up and Down like a shell's history. Up
 * recalls only from an empty input or from a recalled prompt left unchanged, so Up in a
 * draft still moves the caret and never throws the draft away.
 */
export interface PromptHistory {
  /** Remembers a sent prompt (a repeat of the last one is kept once) and stops browsing. */
  add(text: string): void;
  /** The prompt before the one shown, or undefined when Up should keep its usual meaning. */
  older(current: string): string | undefined;
  /** The prompt after the one shown ('' past the newest), or undefined when not browsing. */
  newer(current: string): string | undefined;
  /** Forgets every prompt (a new chat). */
  clear(): void;
}

export function createPromptHistory(limit = 100): PromptHistory {
  let entries: string[] = [];
  /** The entry shown in the input; entries.length when not browsing. */
  let index = 0;

  /** Browsing goes on only while the input still shows the recalled entry. */
  const browsing = (current: string): boolean => index < entries.length && entries[index] === current;

  return {
    add(text) {
      if (text.trim() && entries[entries.length - 1] !== text) entries.push(text);
      if (entries.length > limit) entries = entries.slice(-limit);
      index = entries.length;
    },
    older(current) {
      if (!browsing(current)) {
        if (current !== '') return undefined;
        index = entries.length;
      }
      if (index === 0) return undefined;
      index--;
      return entries[index];
    },
    newer(current) {
      if (!browsing(current)) return undefined;
      index++;
      return index < entries.length ? entries[index] : '';
    },
    clear() {
      entries = [];
      index = 0;
    },
  };
}

/** Whether the caret is on the first line (Up leaves the text) or the last line (Down does). */
export function caretOnEdgeLine(text: string, caret: number, edge: 'first' | 'last'): boolean {
  return edge === 'first' ? !text.slice(0, caret).includes('\n') : !text.slice(caret).includes('\n');
}
