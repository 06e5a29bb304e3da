import type { ModelMessage } from '../model/modelClient';

/**
 * The messages of one agent's conversation. Every append is reported to `onAppend`
 * (the transcript writes it to disk right away), so the file always has what the model saw.
 */
export class Conversation {
  private readonly list: ModelMessage[];

  constructor(
    initial: readonly ModelMessage[] = [],
    private readonly onAppend?: (message: ModelMessage) => void,
  ) {
    this.list = [...initial];
  }

  get messages(): readonly ModelMessage[] {
    return this.list;
  }

  append(...messages: ModelMessage[]): void {
    for (const message of messages) {
      this.list.push(message);
      this.onAppend?.(message);
    }
  }

  /** Replaces everything before the last `keepLast` messages (compaction); reported as one reset. */
  replacePrefix(summary: readonly ModelMessage[], keepLast: number): void {
    const kept = this.list.slice(Math.max(0, this.list.length - keepLast));
    this.list.length = 0;
    this.list.push(...summary, ...kept);
  }

  /** Drops every message from index `length` on (Restore Checkpoint); the transcript records the cut itself. */
  truncate(length: number): void {
    if (length < this.list.length) this.list.length = Math.max(0, length);
  }

  get length(): number {
    return this.list.length;
  }
}
