import type { AgentEvent } from '../../agent/agentEvents';
import { clipForDisplay, formatToolInput, MAX_DISPLAY_TEXT, verdictView } from '../../presentation/agentEventText';
import { modelHookMarkerText } from '../../presentation/modelHookMarkerText';
import type { ChatEvent } from '../../shared/webviewProtocol';

/**
 * Projects agent events onto the chat's wire format, with the words the CLI uses too
 * (presentation/agentEventText.ts). Pure (no vscode), so it is unit-tested with vitest.
 * Large inputs and results are cut here: the webview renders what it gets, and a 5 MB tool
 * result must not freeze it.
 */

/** Longest input JSON / result text sent to the webview; the rest is replaced by a note. */
export const MAX_CHAT_TEXT = MAX_DISPLAY_TEXT;

/** The chat's view of `event`, or undefined for events the chat does not show (hook runs). */
export function projectAgentEvent(event: AgentEvent): ChatEvent | undefined {
  switch (event.type) {
    case 'runStarted':
      return {
        type: 'runStarted',
        agent: { agentId: event.agent.agentId, parentAgentId: event.agent.parentAgentId, agentType: event.agent.agentType },
        ...(event.description !== undefined ? { description: event.description } : {}),
        ...(event.parentToolUseId !== undefined ? { parentToolUseId: event.parentToolUseId } : {}),
      };
    case 'text':
      return { type: 'text', agentId: event.agent.agentId, delta: event.delta };
    case 'reasoning':
      return { type: 'reasoning', agentId: event.agent.agentId, delta: event.delta };
    case 'assistantMessage':
      return { type: 'assistantMessage', agentId: event.agent.agentId, text: event.text };
    case 'toolCall':
      return {
        type: 'toolCall',
        agentId: event.agent.agentId,
        toolUseId: event.toolUseId,
        toolName: event.toolName,
        summary: event.summary,
        input: formatToolInput(event.input),
      };
    case 'toolStatus': {
      const verdict = event.verdict ? verdictView(event.verdict) : undefined;
      return {
        type: 'toolStatus',
        agentId: event.agent.agentId,
        toolUseId: event.toolUseId,
        status: event.status,
        ...(event.input !== undefined ? { input: formatToolInput(event.input) } : {}),
        ...(event.result !== undefined ? { result: clipForDisplay(event.result) } : {}),
        ...(event.isError !== undefined ? { isError: event.isError } : {}),
        ...(verdict !== undefined ? { verdict: verdict.text, verdictBlocks: verdict.blocks } : {}),
      };
    }
    case 'systemMessage':
      return { type: 'systemMessage', agentId: event.agent.agentId, text: event.text, ...(event.source !== undefined ? { source: event.source } : {}) };
    case 'modelHookMarker':
      return {
        type: 'modelHookMarker',
        agentId: event.agent.agentId,
        kind: event.marker.kind,
        hook: event.marker.hookLabel,
        text: modelHookMarkerText(event.marker),
      };
    case 'usage':
      return { type: 'usage', agentId: event.agent.agentId, inputTokens: event.inputTokens, outputTokens: event.outputTokens };
    case 'runEnded':
      return {
        type: 'runEnded',
        agentId: event.agent.agentId,
        status: event.result.status,
        ...(event.result.reason !== undefined ? { reason: event.result.reason } : {}),
        steps: event.result.steps,
      };
  }
}
