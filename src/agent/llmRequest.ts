import type { LlmRequestInput, LlmResponseInput } from '../hooks/inputs/loopEventSchemas';
import type { LlmMessage, LlmRequestPatch, LlmResponse } from '../hooks/inputs/llmShapes';
import { llmContentText, llmResponseText } from '../hooks/inputs/llmShapes';
import type { ModelMessage, ModelRequest, ModelResponse, ModelToolCall, ModelToolSpec } from '../model/modelClient';

/**
 * The model request and reply in the shapes model-level hooks read and write (Gemini CLI's
 * `LLMRequest` / `LLMResponse`, see src/hooks/inputs/llmShapes.ts), and back. Pure.
 */

/** Default cap of the request's text in a hook input (`hookwise.hooks.maxInputBytes`). */
export const DEFAULT_HOOK_INPUT_MAX_BYTES = 4 * 1024 * 1024;

const CUT_MARKER = /^\[content cut by hookwise\.hooks\.maxInputBytes: message (\d+)\]$/;

/** What a cut message's content reads in the input; sent back unchanged, the original is restored. */
function cutMarker(index: number): string {
  return `[content cut by hookwise.hooks.maxInputBytes: message ${index}]`;
}

function toLlmMessage(message: ModelMessage): LlmRequestInput['messages'][number] {
  switch (message.role) {
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      return calls.length === 0
        ? { role: 'model', content: message.content }
        : { role: 'model', content: message.content, tool_calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.argumentsText })) };
    }
    case 'tool':
      return { role: 'tool', content: message.content, tool_call_id: message.toolCallId };
    default:
      return { role: message.role, content: message.content };
  }
}

/**
 * The request as hooks see it. The first system message is the system prompt
 * (`config.systemInstruction`); the rest are `messages`. Past `maxBytes` of message text the
 * oldest messages' content is replaced by a marker and `truncated` says how many.
 */
export function toLlmRequest(request: ModelRequest, defaultModel: string, maxBytes = DEFAULT_HOOK_INPUT_MAX_BYTES): LlmRequestInput {
  const [first, ...rest] = request.messages;
  const system = first?.role === 'system' ? first.content : undefined;
  const messages = (system === undefined ? request.messages : rest).map(toLlmMessage);
  let bytes = messages.reduce((n, m) => n + Buffer.byteLength(m.content) + (m.tool_calls ? Buffer.byteLength(JSON.stringify(m.tool_calls)) : 0), 0);
  let cut = 0;
  // The newest messages matter most to a hook: the oldest lose their text first; the last is never cut.
  for (let i = 0; i < messages.length - 1 && bytes > maxBytes; i++) {
    const message = messages[i] as LlmRequestInput['messages'][number];
    const size = Buffer.byteLength(message.content);
    if (size === 0) continue;
    messages[i] = { ...message, content: cutMarker(i) };
    bytes -= size;
    cut++;
  }
  const names = (request.tools ?? []).map((t) => t.name);
  return {
    model: request.model ?? defaultModel,
    messages,
    config: {
      ...(system !== undefined ? { systemInstruction: system } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
      ...(request.topP !== undefined ? { topP: request.topP } : {}),
      ...(request.stopSequences !== undefined ? { stopSequences: [...request.stopSequences] } : {}),
    },
    toolConfig: { mode: request.toolChoice === 'required' ? 'ANY' : 'AUTO', allowedFunctionNames: names },
    tools: (request.tools ?? []).map((t) => ({ name: t.name, description: t.description })),
    ...(cut > 0 ? { truncated: { messages_cut: cut, max_bytes: maxBytes } } : {}),
  };
}

/**
 * A hook's messages as the conversation's, checked as the model will check them: a tool
 * result answers a call made before it, and every call is answered before the next message.
 * `original` restores the content of messages the input cap cut. Returns an error text when invalid.
 */
export function fromLlmMessages(messages: readonly LlmMessage[], original: readonly ModelMessage[]): readonly ModelMessage[] | string {
  const out: ModelMessage[] = [];
  const open = new Set<string>();
  for (const [i, message] of messages.entries()) {
    let content = llmContentText(message.content);
    const restored = CUT_MARKER.exec(content);
    const from = restored ? original[Number(restored[1])] : undefined;
    if (from !== undefined) content = from.content;
    if (message.role === 'tool') {
      const id = message.tool_call_id;
      if (id === undefined || !open.delete(id))
        return `messages[${i}] is a tool result for ${id === undefined ? 'no call (tool_call_id missing)' : `"${id}", which no earlier call made`}`;
      out.push({ role: 'tool', toolCallId: id, content });
      continue;
    }
    if (open.size > 0) return `messages[${i}] comes before the tool call(s) ${[...open].map((id) => `"${id}"`).join(', ')} were answered`;
    if (message.role === 'model' || message.role === 'assistant') {
      const calls: ModelToolCall[] = (message.tool_calls ?? []).map((c) => ({ id: c.id, name: c.name, argumentsText: c.arguments }));
      for (const call of calls) open.add(call.id);
      out.push(calls.length > 0 ? { role: 'assistant', content, toolCalls: calls } : { role: 'assistant', content });
    } else out.push({ role: message.role, content });
  }
  return out;
}

/** The generation settings of a patch applied to `request` (unknown keys and `topK` ignored: OpenAI-compatible servers have none). */
export function withConfig(request: ModelRequest, config: NonNullable<LlmRequestPatch['config']>): ModelRequest {
  return {
    ...request,
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.maxOutputTokens !== undefined ? { maxTokens: config.maxOutputTokens } : {}),
    ...(config.topP !== undefined ? { topP: config.topP } : {}),
    ...(config.stopSequences !== undefined ? { stopSequences: config.stopSequences } : {}),
    ...(config.presencePenalty !== undefined ? { presencePenalty: config.presencePenalty } : {}),
    ...(config.frequencyPenalty !== undefined ? { frequencyPenalty: config.frequencyPenalty } : {}),
  };
}

/** The reply as AfterInference sees it. */
export function toLlmResponse(response: ModelResponse): LlmResponseInput {
  return {
    text: response.text,
    candidates: [{ content: { role: 'model', parts: response.text === '' ? [] : [response.text] }, finishReason: response.finishReason }],
    tool_calls: response.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.argumentsText })),
    ...(response.usage
      ? {
          usageMetadata: {
            promptTokenCount: response.usage.inputTokens,
            candidatesTokenCount: response.usage.outputTokens,
            totalTokenCount: response.usage.inputTokens + response.usage.outputTokens,
          },
        }
      : {}),
  };
}

/**
 * A hook's reply as a model response. `tool_calls` absent keeps `base`'s calls (a redactor that
 * rewrites only the text keeps them); a call naming a tool not offered makes it an error text.
 */
export function fromLlmResponse(reply: LlmResponse, base: ModelResponse | undefined, offered: readonly ModelToolSpec[]): ModelResponse | string {
  const calls: readonly ModelToolCall[] =
    reply.tool_calls !== undefined ? reply.tool_calls.map((c) => ({ id: c.id, name: c.name, argumentsText: c.arguments })) : (base?.toolCalls ?? []);
  const names = new Set(offered.map((t) => t.name));
  const stray = calls.find((c) => !names.has(c.name));
  if (stray !== undefined) return `the reply calls "${stray.name}", a tool this call did not offer`;
  const ids = new Set<string>();
  for (const call of calls) {
    if (ids.has(call.id)) return `the reply has two tool calls with the id "${call.id}"`;
    ids.add(call.id);
  }
  const finishReason = reply.candidates?.[0]?.finishReason?.toLowerCase() ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  const usage = base?.usage;
  return { text: llmResponseText(reply), toolCalls: calls, finishReason, ...(usage ? { usage } : {}) };
}
