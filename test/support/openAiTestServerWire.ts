/**
 * The wire format of the OpenAI test server (openAiTestServer.ts): SSE chunks of
 * `chat.completion.chunk` objects and whole `chat.completion` objects, shaped like
 * api.openai.com's so the real `openai` SDK parses them. No test framework imports.
 */
import type { ServerResponse } from 'node:http';
import type { ChatCompletionRequestBody, ScriptedMessageReply, ScriptedToolCall } from './openAiTestServer';

/** Per-reply pacing. */
export interface ReplyTiming {
  readonly delayMs: number;
}

let nextId = 1;

/** OpenAI's error JSON: `{ error: { message, type, param, code } }`. */
export function openAiErrorBody(message: string, type: string, code: string | null, param: string | null = null): unknown {
  return { error: { message, type, param, code } };
}

/** Streams `reply` as SSE; with `hang`, stops after the text and leaves the response open. */
export async function writeStream(
  res: ServerResponse,
  request: ChatCompletionRequestBody,
  reply: ScriptedMessageReply,
  timing: ReplyTiming,
  hang: boolean,
): Promise<void> {
  const id = `chatcmpl-test-${nextId++}`;
  const created = Math.floor(Date.now() / 1000);
  const model = request.model ?? 'test-model';
  const size = Math.max(1, reply.chunkSize ?? 4);
  const chunk = (choices: unknown[], usage?: unknown): unknown => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices,
    ...(usage === undefined ? {} : { usage }),
  });
  const send = async (payload: unknown): Promise<boolean> => {
    if (timing.delayMs > 0) await sleep(timing.delayMs);
    if (res.destroyed || res.writableEnded) return false;
    res.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
    return true;
  };
  const delta = (d: Record<string, unknown>, finishReason: string | null = null): unknown =>
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finishReason }]);

  if (!(await send(delta({ role: 'assistant', content: '' })))) return;
  for (const piece of pieces(reply.reasoning ?? '', size)) {
    if (!(await send(delta({ reasoning_content: piece })))) return;
  }
  for (const piece of pieces(reply.text ?? '', size)) {
    if (!(await send(delta({ content: piece })))) return;
  }
  if (hang) {
    res.flushHeaders();
    return;
  }
  if (reply.failMidStream !== undefined) {
    await send({ error: { message: reply.failMidStream, type: 'server_error', param: null, code: null } });
    res.end();
    return;
  }
  const calls = (reply.toolCalls ?? []).map((call, index) => toolCallDeltas(call, index, size));
  if (reply.interleaveToolCalls) {
    const longest = Math.max(0, ...calls.map((c) => c.length));
    for (let step = 0; step < longest; step++) {
      for (const c of calls) {
        const d = c[step];
        if (d !== undefined && !(await send(delta({ tool_calls: [d] })))) return;
      }
    }
  } else {
    for (const c of calls) {
      for (const d of c) if (!(await send(delta({ tool_calls: [d] })))) return;
    }
  }
  if (!(await send(delta({}, finishReasonOf(reply))))) return;
  const usage = usageOf(reply, request);
  if (usage !== undefined && request.stream_options?.include_usage === true) {
    if (!(await send(chunk([], usage)))) return;
  }
  if (!(await send('[DONE]'))) return;
  res.end();
}

/** Writes `reply` as one non-streaming `chat.completion`. */
export async function writeCompletion(
  res: ServerResponse,
  request: ChatCompletionRequestBody,
  reply: ScriptedMessageReply,
  timing: ReplyTiming,
): Promise<void> {
  if (timing.delayMs > 0) await sleep(timing.delayMs);
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_test_${nextId}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  const usage = usageOf(reply, request);
  const payload = {
    id: `chatcmpl-test-${nextId++}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model ?? 'test-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? (toolCalls.length > 0 ? null : ''),
          refusal: null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(reply),
      },
    ],
    ...(usage === undefined ? {} : { usage }),
  };
  const text = JSON.stringify(payload);
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** First delta carries id/type/name, the following ones carry argument pieces only — as OpenAI does. */
function toolCallDeltas(call: ScriptedToolCall, index: number, size: number): Record<string, unknown>[] {
  const first = {
    index,
    id: call.id ?? `call_test_${nextId}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: '' },
  };
  return [first, ...pieces(argumentsText(call), size).map((piece) => ({ index, function: { arguments: piece } }))];
}

function argumentsText(call: ScriptedToolCall): string {
  if (call.arguments === undefined) return '{}';
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function finishReasonOf(reply: ScriptedMessageReply): string {
  return reply.finishReason ?? ((reply.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
}

function usageOf(reply: ScriptedMessageReply, request: ChatCompletionRequestBody): unknown {
  if (reply.usage === false) return undefined;
  const prompt = reply.usage?.promptTokens ?? Math.ceil(JSON.stringify(request.messages ?? []).length / 4);
  const completion =
    reply.usage?.completionTokens ??
    Math.ceil(((reply.text ?? '').length + (reply.toolCalls ?? []).reduce((n, c) => n + c.name.length + argumentsText(c).length, 0)) / 4);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  // Split by code points so a multi-byte character never lands in two chunks.
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
