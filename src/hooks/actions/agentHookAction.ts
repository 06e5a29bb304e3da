import type { HookAction, HookActionContext, HookActionResult } from '../hookAction';
import { proceed } from '../hookOutcome';

/** Claude Code's default agent-hook timeout (research §5.2: 60 s). */
export const AGENT_HOOK_DEFAULT_TIMEOUT_MS = 60_000;

/**
 * A `"type": "agent"` hook — NOT IMPLEMENTED YET. The real one (issue 4, deliverable 3) is a
 * subagent with read-only tools (Read, Glob, Grep) answering `{ok, reason?}` like a prompt
 * hook, at most 50 steps, `ok:false` → "Agent hook condition was not met: <reason>". It needs
 * the agent loop (src/agent), which does not exist yet. Until then this placeholder lets the
 * config loader register agent hooks from `.claude/settings.json` without crashing: every run
 * is a failure record saying so (fail-open, as any hook failure; a hook with
 * `continueOnFailure: false` denies).
 */
export class AgentHookAction implements HookAction {
  readonly kind = 'agent';
  readonly label: string;
  /** Claude Code dedups agent hooks by their prompt, like prompt hooks. */
  readonly dedupKey: string;
  readonly defaultTimeoutMs = AGENT_HOOK_DEFAULT_TIMEOUT_MS;

  constructor(readonly prompt: string) {
    const oneLine = prompt.trim().replace(/\s+/g, ' ');
    this.label = oneLine.length > 120 ? `${oneLine.slice(0, 120)}…` : oneLine;
    this.dedupKey = `agent:${prompt}`;
  }

  run(_input: Readonly<Record<string, unknown>>, _ctx: HookActionContext): Promise<HookActionResult> {
    return Promise.resolve({ status: 'failed', outcome: proceed(), error: 'agent hooks ("type": "agent") are not supported yet in Hookwise; use a prompt or command hook' });
  }
}
