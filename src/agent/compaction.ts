import type { ModelClient, ModelMessage } from '../model/modelClient';
import { collectResponse } from '../model/modelClient';

/** Rough token estimate (≈4 characters per token): enough to decide when to compact. */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += m.content.length;
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) chars += c.name.length + c.argumentsText.length;
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
