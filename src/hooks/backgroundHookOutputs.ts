import type { HookExecution } from './hookExecution';
import type { BackgroundHookOutput } from './hookRunTypes';

/** Most pending background-hook outputs kept across sessions; the oldest go first. */
const MAX_BACKGROUND_OUTPUT = 200;

/**
 * The background (async) hooks of a runner: those still running, and what the finished ones
 * said until the session's agent takes it (Claude Code delivers async hook output on the
 * next turn). Bounded: a session that never takes its output cannot grow it without limit.
 */
export class BackgroundHookOutputs {
  private outputs: BackgroundHookOutput[] = [];
  private readonly runs = new Set<Promise<void>>();

  /** Takes (and forgets) what the background hooks of `sessionId` said since the last call. */
  take(sessionId: string): BackgroundHookOutput[] {
    if (this.outputs.length === 0) return [];
    const mine = this.outputs.filter((o) => o.sessionId === sessionId);
    if (mine.length > 0) this.outputs = this.outputs.filter((o) => o.sessionId !== sessionId);
    return mine;
  }

  /** Resolves when every background hook tracked so far has finished. */
  async settle(): Promise<void> {
    while (this.runs.size > 0) await Promise.allSettled([...this.runs]);
  }

  /** Tracks `started` (the execution's run) and keeps what the execution said once it ends. */
  track(execution: HookExecution, started: Promise<void>): void {
    const run = started.then(() => this.keep(execution));
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run));
  }

  private keep(execution: HookExecution): void {
    const end = execution.end;
    if (end?.kind !== 'result' || end.result.status !== 'ok') return;
    const { additionalContext, systemMessage } = end.result.outcome;
    if (!additionalContext && !systemMessage) return;
    if (this.outputs.length >= MAX_BACKGROUND_OUTPUT) this.outputs.shift();
    this.outputs.push({
      sessionId: execution.sessionId,
      event: execution.event,
      hookLabel: execution.registration.action.label,
      ...(additionalContext ? { additionalContext } : {}),
      ...(systemMessage ? { systemMessage } : {}),
    });
  }
}
