import type { HookEventResult } from '../hooks/hookRunTypes';
import type { ModelMessage } from '../model/modelClient';
import type { Conversation } from './conversation';

/**
 * Collects what hooks add for the model (additionalContext, injected messages) until the
 * next model call, then turns it into conversation messages. Context is wrapped like
 * Claude Code's `<system-reminder>` so models trained on it read it as out-of-band.
 */
export class ContextBuffer {
  private readonly pending: ModelMessage[] = [];

  /** Takes what one event's hooks contributed; `hookName` is e.g. `PreToolUse:Bash`. */
  collect(result: HookEventResult, hookName: string, options: { readonly plainOutputIsContext?: boolean } = {}): void {
    const context = [...(options.plainOutputIsContext ? result.plainOutputs : []), ...result.additionalContext].filter((c) => c.trim() !== '');
    if (context.length > 0) this.add(`${hookName} hook additional context: ${context.join('\n')}`);
    for (const message of result.messagesToInject) this.pending.push({ role: message.role, content: message.content });
  }

  /** Adds one out-of-band note for the model. */
  add(text: string): void {
    this.pending.push({ role: 'user', content: `<system-reminder>\n${text}\n</system-reminder>` });
  }

  /** Moves everything pending into `conversation` (in order) and empties the buffer. */
  flushInto(conversation: Conversation): number {
    const n = this.pending.length;
    conversation.append(...this.pending);
    this.pending.length = 0;
    return n;
  }

  get size(): number {
    return this.pending.length;
  }
}
