import { MAIN_AGENT } from '../../agent/sessionReplay';
import type { ChatEvent } from '../../shared/webviewProtocol';

/**
 * What the chat shows since the last New Chat, kept on the extension side so a re-created
 * webview (moved to another side bar, reloaded) can be sent everything in its `init`.
 * Streaming deltas are coalesced per agent, and the log is bounded: the oldest events go
 * first (the webview tolerates a status whose card was dropped).
 */
export class ChatEventLog {
  private events: ChatEvent[] = [];

  constructor(private readonly maxEvents = 5_000) {}

  /** Appends `event`, merging a `text` or `reasoning` delta into the previous one of the same agent. */
  add(event: ChatEvent): void {
    const last = this.events[this.events.length - 1];
    if (event.type === 'text' && last?.type === 'text' && last.agentId === event.agentId) {
      this.events[this.events.length - 1] = { ...last, delta: last.delta + event.delta };
      return;
    }
    if (event.type === 'reasoning' && last?.type === 'reasoning' && last.agentId === event.agentId) {
      this.events[this.events.length - 1] = { ...last, delta: last.delta + event.delta };
      return;
    }
    this.events.push(event);
    if (this.events.length > this.maxEvents) this.events.splice(0, this.events.length - this.maxEvents);
  }

  /**
   * Restore Checkpoint: drops the prompt `checkpointId` belongs to and everything after it; the
   * earlier cards stay as they were (path, who decided, diffs). False when the log no longer
   * holds that prompt (dropped by the bound, or never shown here): the caller redraws instead.
   */
  rewind(checkpointId: number): boolean {
    const at = this.events.findIndex((e) => e.type === 'checkpoint' && e.checkpointId === checkpointId);
    const marker = this.events[at];
    if (marker?.type !== 'checkpoint') return false;
    const prompts = this.events.flatMap((e, i) => (e.type === 'userPrompt' ? [i] : []));
    // A resumed session's checkpoint names its prompt; a live one follows it.
    const cut = marker.userMessage !== undefined ? prompts[marker.userMessage] : prompts.filter((i) => i < at).at(-1);
    if (cut === undefined) return false;
    this.events.splice(cut);
    return true;
  }

  /** Tokens of the main agent's last model call still in the log (the context meter), if any. */
  lastMainUsage(): number | undefined {
    const usage = this.events.findLast((e) => e.type === 'usage' && e.agentId === MAIN_AGENT.agentId);
    return usage?.type === 'usage' ? usage.inputTokens + usage.outputTokens : undefined;
  }

  /** A copy of the events, oldest first. */
  snapshot(): ChatEvent[] {
    return [...this.events];
  }

  clear(): void {
    this.events = [];
  }

  get size(): number {
    return this.events.length;
  }
}
