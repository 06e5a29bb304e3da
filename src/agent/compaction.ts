import type { ModelClient, ModelMessage } from '../model/modelClient';
import { collectResponse } from '../model/modelClient';

/**
 * The JSON framing the request adds around each message and tool call, in characters
 * (`{"role":"tool","tool_call_id":"…","content":"…"}`, `{"id":"…","type":"function","function":{…}}`):
 * in a session of many small tool calls the framing outweighs the text, and leaving it out
 * kept a 2,000-call session under any budget.
 */
const MESSAGE_FRAME_CHARS = 30;
const TOOL_RESULT_FRAME_CHARS = 20;
const TOOL_CALL_FRAME_CHARS = 70;

/**
 * Rough token estimate (≈4 characters per token) of what the messages cost in a model
 * request: their text, tool calls' names, ids and JSON arguments, and the framing of each.
 * Enough to decide when to compact.
 */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += MESSAGE_FRAME_CHARS + m.content.length;
    if (m.role === 'tool') chars += TOOL_RESULT_FRAME_CHARS + m.toolCallId.length;
    else if (m.role === 'assistant') for (const c of m.toolCalls ?? []) chars += TOOL_CALL_FRAME_CHARS + c.id.length + c.name.length + c.argumentsText.length;
  }
  return Math.ceil(chars / 4);
}

/**
 * Where to cut: keep roughly the last `keepRatio` of the conversation, starting at a message
 * that is not a tool result (a kept tool result without its call is invalid). Returns the
 * index of the first kept message; 0 = nothing to summarize.
 */
export function compactionCut(messages: readonly ModelMessage[], keepRatio = 0.25): number {
  let cut = Math.floor(messages.length * (1 - keepRatio));
  while (cut > 0 && messages[cut]?.role === 'tool') cut--;
  return Math.max(0, cut);
}

const SUMMARY_PROMPT = [
  'You are compacting the conversation of a coding agent so it can continue with less context.',
  "Write a dense summary of everything below that the agent needs to carry on: the user's requests and constraints,",
  'decisions made, files read or changed (with paths), commands run and their outcomes, hook decisions that blocked',
  'or changed actions and why, open problems, and the next steps. Do not invent anything.',
].join(' ');

/** Renders messages as plain text for the summarizer (tool calls included). */
function render(messages: readonly ModelMessage[]): string {
  return messages
    .map((m) => {
      switch (m.role) {
        case 'assistant':
          return `ASSISTANT: ${m.content}${(m.toolCalls ?? []).map((c) => `\n[tool call ${c.name} ${c.argumentsText}]`).join('')}`;
        case 'tool':
          return `TOOL RESULT${m.isError ? ' (error)' : ''}: ${m.content.length > 4000 ? `${m.content.slice(0, 4000)}…` : m.content}`;
        default:
          return `${m.role.toUpperCase()}: ${m.content}`;
      }
    })
    .join('\n\n');
}

/**
 * Writes the summary that replaces `messages` (the older turns) in a compaction. `instructions`
 * are the user's `/compact` text and what PreCompact hooks added. Rejects on failure: the
 * compaction is then reported and the conversation left as it was.
 */
export type Summarizer = (messages: readonly ModelMessage[], instructions: readonly string[], signal: AbortSignal) => Promise<string>;

/**
 * Asks the model for a summary of `messages`, with PreCompact hooks' instructions and the
 * user's own appended. Rejects as the model does.
 */
export async function summarize(
  model: ModelClient,
  messages: readonly ModelMessage[],
  instructions: readonly string[],
  signal: AbortSignal,
  modelName?: string,
): Promise<string> {
  const extra = instructions.map((i) => i.trim()).filter(Boolean);
  const response = await collectResponse(
    model,
    {
      messages: [
        { role: 'system', content: extra.length > 0 ? `${SUMMARY_PROMPT}\n\nAdditional instructions:\n${extra.join('\n\n')}` : SUMMARY_PROMPT },
        { role: 'user', content: render(messages) },
      ],
      ...(modelName ? { model: modelName } : {}),
    },
    signal,
  );
  return response.text.trim();
}
