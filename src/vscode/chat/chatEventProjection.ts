import type { AgentEvent, HookVerdict } from '../../agent/agentEvents';
import { describeSource } from '../../configFiles/hookSource';
import type { ChatEvent } from '../../shared/webviewProtocol';

/**
 * Projects agent events onto the chat's wire format. Pure (no vscode), so it is unit-tested
 * with vitest. Large inputs and results are cut here: the webview renders what it gets, and
 * a 5 MB tool result must not freeze it.
 */

/** Longest input JSON / result text sent to the webview; the rest is replaced by a note. */
export const MAX_CHAT_TEXT = 20_000;

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
        input: formatInput(event.input),
      };
    case 'toolStatus': {
      const verdict = event.verdict ? verdictText(event.verdict) : undefined;
      return {
        type: 'toolStatus',
        agentId: event.agent.agentId,
        toolUseId: event.toolUseId,
        status: event.status,
        ...(event.input !== undefined ? { input: formatInput(event.input) } : {}),
        ...(event.result !== undefined ? { result: cut(event.result) } : {}),
        ...(event.isError !== undefined ? { isError: event.isError } : {}),
        ...(verdict !== undefined ? { verdict, verdictBlocks: isBlocking(event.verdict?.decision) } : {}),
      };
    }
    case 'systemMessage':
      return { type: 'systemMessage', agentId: event.agent.agentId, text: event.text, ...(event.source !== undefined ? { source: event.source } : {}) };
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

/**
 * Who decided, in words: "Blocked by PreToolUse hook `.claude/settings.json › hooks.PreToolUse[0].hooks[0]`: reason",
 * "Denied by you", "Allowed by permission rule Bash(npm test:*)".
 */
export function verdictText(verdict: HookVerdict): string {
  const verb = verbFor(verdict.decision);
  const by = verdict.decidedBy;
  let who: string;
  if (!by) who = `${verdict.event} hooks`;
  else if (by.kind === 'hook') who = `${verdict.event} hook \`${describeSource(by.source)}\``;
  else if (by.kind === 'user') who = 'you';
  else if (by.kind === 'fallback') who = `the ask fallback${by.detail ? ` (${by.detail})` : ' (nobody could be asked)'}`;
  else if (by.kind === 'rule') who = `permission rule${by.detail ? ` ${by.detail}` : ''}`;
  else who = `permission mode${by.detail ? ` ${by.detail}` : ''}`;
  const reason = verdict.reason?.trim();
  return `${verb} by ${who}${reason ? `: ${reason}` : ''}`;
}

function verbFor(decision: string): string {
  switch (decision) {
    case 'deny':
      return 'Blocked';
    case 'allow':
      return 'Allowed';
    case 'stop':
      return 'Stopped';
    case 'continue':
      return 'Continued';
    case 'ask':
      return 'Asked';
    default:
      return decision.charAt(0).toUpperCase() + decision.slice(1);
  }
}

function isBlocking(decision: string | undefined): boolean {
  return decision === 'deny' || decision === 'stop';
}

/** Pretty JSON of a tool input (strings stay as they are: unparseable arguments). */
export function formatInput(input: unknown): string {
  if (typeof input === 'string') return cut(input);
  try {
    return cut(JSON.stringify(input, null, 2) ?? String(input));
  } catch {
    return String(input);
  }
}

function cut(text: string): string {
  if (text.length <= MAX_CHAT_TEXT) return text;
  return `${text.slice(0, MAX_CHAT_TEXT)}\n… (${text.length - MAX_CHAT_TEXT} more characters not shown)`;
}
