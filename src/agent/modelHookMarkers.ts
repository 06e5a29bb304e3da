import type { LlmRequestPatch } from '../hooks/inputs/llmShapes';
import type { LlmRequestInput } from '../hooks/inputs/loopEventSchemas';
import { describeModelEdit } from '../hooks/modelEditSummary';
import type { ModelHookMarker } from './agentEvents';
import type { AgentRun } from './agentRun';

/**
 * The marks model-level hooks leave on a reply (an agent event, not a free-text message): the
 * chat shows them on the assistant message they concern and keeps them in its display record,
 * the CLI prints them in the same words (presentation/modelHookMarkerText.ts).
 */

function mark(run: AgentRun, marker: ModelHookMarker): void {
  run.o.ctx.emit({ type: 'modelHookMarker', agent: run.o.agent, marker });
}

/** A hook answered in the model's place: the model was not called. */
export function markAnswered(run: AgentRun, hookLabel: string): void {
  mark(run, { kind: 'answered', hookLabel });
}

/** A hook replaced the model's reply. */
export function markRedacted(run: AgentRun, hookLabel: string): void {
  mark(run, { kind: 'redacted', hookLabel });
}

/**
 * A hook's `llm_request` rewrite was applied; `seen` is the request as the hooks saw it, so the
 * detail uses Hook Runs' words (`messages 42 → 12`, `system prompt rewritten`).
 */
export function markRequestChanged(run: AgentRun, hookLabel: string, seen: LlmRequestInput | undefined, patch: LlmRequestPatch): void {
  const detail = describeModelEdit('BeforeInference', seen !== undefined ? { llm_request: seen } : {}, { llmRequest: patch });
  mark(run, { kind: 'requestChanged', hookLabel, ...(detail !== undefined ? { detail } : {}) });
}
