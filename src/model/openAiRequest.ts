/**
 * Builds the Chat Completions request body from a `ModelRequest`, and knows which optional
 * parameters some OpenAI-compatible servers reject — so the adapter can drop exactly that
 * parameter and try once more instead of failing (Ollama and older vLLM reject
 * `stream_options`; many local servers reject `response_format`; OpenAI's reasoning models
 * reject `max_tokens` and a non-default `temperature`).
 */
import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ModelMessage, ModelRequest } from './modelClient';
import { parseBoundedJson } from '../shared/boundedJson';

/** The streaming request body we send. */
export type ChatRequestBody = ChatCompletionCreateParamsStreaming;

/** An optional parameter that can be dropped (or rewritten) when the server rejects it. */
export interface RequestFallback {
  /** Stable name, used to remember per client that the server rejects it. */
  readonly name: 'streamOptions' | 'responseFormat' | 'maxTokens' | 'temperature';
  /** Whether `body` uses the parameter at all. */
  applies(body: ChatRequestBody): boolean;
  /** Whether a 400/422 with this server message is about the parameter. */
  matches(serverMessage: string): boolean;
  /** The body without (or with a replacement for) the parameter. */
  drop(body: ChatRequestBody): ChatRequestBody;
}

/** The fallbacks, in the order they are tried. */
export const requestFallbacks: readonly RequestFallback[] = [
  {
    name: 'streamOptions',
    applies: (body) => body.stream_options !== undefined,
    matches: (m) => /stream_options|include_usage/i.test(m),
    drop: ({ stream_options: _dropped, ...rest }) => rest,
  },
  {
    name: 'responseFormat',
    applies: (body) => body.response_format !== undefined,
    // Tolerant on purpose: a 400 to a request with response_format is most often about it,
    // and the retry without it tells us (a second 400 is then reported as is).
    matches: () => true,
    drop: ({ response_format: _dropped, ...rest }) => rest,
  },
  {
    name: 'maxTokens',
    applies: (body) => body.max_tokens !== undefined && body.max_tokens !== null,
    matches: (m) => /max_tokens/.test(m) && /max_completion_tokens/.test(m),
    drop: ({ max_tokens, ...rest }) => ({ ...rest, max_completion_tokens: max_tokens ?? null }),
  },
  {
    name: 'temperature',
    applies: (body) => body.temperature !== undefined && body.temperature !== null,
    matches: (m) => /temperature/i.test(m),
    drop: ({ temperature: _dropped, ...rest }) => rest,
  },
];

/** Everything of the body that does not depend on server quirks. */
export function buildChatRequestBody(request: ModelRequest, defaultModel: string): ChatRequestBody {
  const body: ChatRequestBody = {
    model: request.model ?? defaultModel,
    messages: request.messages.map(toOpenAiMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  // An empty `tools` array is rejected by several servers; send the key only when there are tools.
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: { ...tool.parameters } },
    }));
  }
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.stopSequences !== undefined && request.stopSequences.length > 0) body.stop = [...request.stopSequences];
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.toolChoice !== undefined && body.tools !== undefined) body.tool_choice = request.toolChoice;
  if (request.responseSchema !== undefined) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: request.responseSchema.name, schema: { ...request.responseSchema.schema }, strict: false },
    };
  }
  return body;
}

/** Maps one port message to OpenAI's message shape. */
export function toOpenAiMessage(message: ModelMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // OpenAI's canonical shape for "only tool calls" is content: null.
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: replayableArguments(call.argumentsText) },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/**
 * Arguments to send back in the history. Broken JSON the model produced earlier is replaced
 * by `{}`: some servers (Ollama among them) parse history arguments and answer 400 to the
 * whole request otherwise, and the tool result that follows already tells the model what
 * was wrong with its call. Arguments nested deeper than 64 levels count as broken.
 */
function replayableArguments(argumentsText: string): string {
  // Arguments nested too deep were refused the same way (a server's recursive parser may crash on them).
  return parseBoundedJson(argumentsText).ok ? argumentsText : '{}';
}
