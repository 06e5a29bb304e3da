import type { ModelMessage } from '../model/modelClient';
import { parseBoundedJson } from '../shared/boundedJson';
import type { AgentEvent } from './agentEvents';

/** What redraws a resumed conversation: the agent's events, plus the user's own prompts. */
export type ReplayEvent = AgentEvent | { readonly type: 'userPrompt'; readonly text: string };

/** The main agent, as the events of a resumed conversation name it. */
export const MAIN_AGENT = { agentId: 'main', parentAgentId: null, agentType: 'main' } as const;

/**
 * The events that redraw a resumed conversation as the chat showed it live: each prompt
 * (injected `<system-reminder>` context is not a prompt), each assistant message, and each
 * tool call with its result (failed when the result was an error).
 */
export function replayEvents(messages: readonly ModelMessage[]): ReplayEvent[] {
  const results = new Map(messages.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, m] as const] : [])));
  const events: ReplayEvent[] = [];
  for (const m of messages) {
    if (m.role === 'user' && !m.content.startsWith('<system-reminder>')) events.push({ type: 'userPrompt', text: m.content });
    if (m.role !== 'assistant') continue;
    if (m.content) events.push({ type: 'text', agent: MAIN_AGENT, delta: m.content });
    events.push({ type: 'assistantMessage', agent: MAIN_AGENT, text: m.content, step: 0 });
    for (const call of m.toolCalls ?? []) {
      const result = results.get(call.id);
      events.push({ type: 'toolCall', agent: MAIN_AGENT, toolUseId: call.id, toolName: call.name, input: jsonOrText(call.argumentsText), summary: call.name });
      events.push({
        type: 'toolStatus',
        agent: MAIN_AGENT,
        toolUseId: call.id,
        status: result?.isError ? 'failed' : 'done',
        ...(result ? { result: result.content, isError: result.isError ?? false } : {}),
      });
    }
  }
  return events;
}

/** Tool arguments as the model wrote them: parsed when they are (bounded) JSON, else the text. */
function jsonOrText(text: string): unknown {
  const parsed = parseBoundedJson(text);
  return parsed.ok ? parsed.value : text;
}
