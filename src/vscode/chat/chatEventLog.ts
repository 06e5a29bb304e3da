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
