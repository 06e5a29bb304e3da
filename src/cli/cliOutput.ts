import type { AgentEvent } from '../agent/agentEvents';
import type { HookRunRecord } from '../hooks/hookRunTypes';
import { describeSource } from '../configFiles/hookSource';
import { verdictView, type VerdictView } from '../presentation/agentEventText';
import { modelHookMarkerText } from '../presentation/modelHookMarkerText';

/** A hook run as the CLI's `json` / `stream-json` output shows it. */
export interface CliHookRun {
  readonly run_id: string;
  readonly event: string;
  readonly hook: string;
  readonly source: string;
  readonly agent_id: string;
  readonly status: string;
  readonly decision?: string;
  readonly reason?: string;
  readonly error?: string;
  readonly exit_code?: number | null;
  readonly duration_ms?: number;
  /** Problems that did not fail the run (unknown output fields). */
  readonly warnings?: readonly string[];
  /** What a model-level hook changed (`messages 42 → 12`, `reply redacted`). */
  readonly changed?: string;
  /** http hooks: the URL posted to and the response status (absent when no response came). */
  readonly url?: string;
  readonly http_status?: number;
  /** The handler's statusMessage. */
  readonly status_message?: string;
  readonly permission?: { readonly decision: string; readonly decided_by: string };
}

/** Projects a run record onto the CLI's snake_case shape (no input/stdout: those are in the transcript). */
export function toCliHookRun(record: HookRunRecord): CliHookRun {
  return {
    run_id: record.runId,
    event: record.event,
    hook: record.hookLabel,
    source: describeSource(record.source),
    agent_id: record.agentId,
    status: record.status,
    ...(record.outcome?.decision ? { decision: record.outcome.decision } : {}),
    ...(record.outcome?.reason ? { reason: record.outcome.reason } : {}),
    ...(record.error ? { error: record.error } : {}),
    ...(record.raw?.http ? { url: record.raw.http.url, ...(record.raw.http.status !== undefined ? { http_status: record.raw.http.status } : {}) } : {}),
    ...(record.raw && !record.raw.http ? { exit_code: record.raw.exitCode } : {}),
    ...(record.durationMs !== undefined ? { duration_ms: Math.round(record.durationMs) } : {}),
    ...(record.warnings !== undefined && record.warnings.length > 0 ? { warnings: record.warnings } : {}),
    ...(record.effect !== undefined ? { changed: record.effect } : {}),
    ...(record.statusMessage !== undefined ? { status_message: record.statusMessage } : {}),
    ...(record.permission ? { permission: { decision: record.permission.decision, decided_by: record.permission.decidedBy } } : {}),
  };
}

/** The `stream-json` line for a hook run that finished or whose ask was settled. */
export function hookRunLine(record: HookRunRecord, phase: 'finished' | 'askResolved'): Record<string, unknown> {
  return { type: 'hook_run', phase, ...toCliHookRun(record) };
}

/** One `stream-json` line for an agent event, or undefined for events the stream leaves out. */
export function streamLine(event: AgentEvent): Record<string, unknown> | undefined {
  switch (event.type) {
    case 'text':
      return { type: 'text', agent_id: event.agent.agentId, delta: event.delta };
    case 'toolCall':
      return {
        type: 'tool_call',
        agent_id: event.agent.agentId,
        tool_use_id: event.toolUseId,
        tool_name: event.toolName,
        input: event.input,
        summary: event.summary,
      };
    case 'toolStatus':
      return {
        type: 'tool_status',
        agent_id: event.agent.agentId,
        tool_use_id: event.toolUseId,
        status: event.status,
        ...(event.result !== undefined ? { result: event.result } : {}),
        ...(event.verdict ? { verdict: verdictLine(verdictView(event.verdict)) } : {}),
      };
    case 'systemMessage':
      return { type: 'system', agent_id: event.agent.agentId, message: event.text, ...(event.source ? { source: event.source } : {}) };
    case 'modelHookMarker':
      return {
        type: 'model_hook',
        agent_id: event.agent.agentId,
        kind: MARKER_KINDS[event.marker.kind],
        hook: event.marker.hookLabel,
        ...(event.marker.detail !== undefined ? { detail: event.marker.detail } : {}),
        message: modelHookMarkerText(event.marker),
      };
    case 'usage':
      return { type: 'usage', agent_id: event.agent.agentId, input_tokens: event.inputTokens, output_tokens: event.outputTokens };
    case 'runStarted':
      return { type: 'agent_start', agent_id: event.agent.agentId, parent_agent_id: event.agent.parentAgentId, agent_type: event.agent.agentType };
    case 'runEnded':
      return { type: 'agent_end', agent_id: event.agent.agentId, status: event.result.status, ...(event.result.reason ? { reason: event.result.reason } : {}) };
    case 'assistantMessage':
      return undefined;
  }
}

/** The stream's snake_case names of a model-level hook's marks. */
const MARKER_KINDS = { answered: 'answered', redacted: 'redacted', requestChanged: 'request_changed' } as const;

/** A verdict as the stream's `tool_status` line carries it (who decided as a kind; the words are the chat's). */
function verdictLine(view: VerdictView): Record<string, unknown> {
  return { event: view.event, decision: view.decision, reason: view.reason, decided_by: view.decidedBy };
}
