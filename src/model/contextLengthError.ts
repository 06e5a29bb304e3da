import { ModelError } from './modelError';

/**
 * What servers say when a prompt does not fit the model's context: Anthropic's "prompt is too
 * long", OpenAI's `context_length_exceeded` / "maximum context length", vLLM's and llama.cpp's
 * "exceeds the context size/window", Ollama's "context length".
 */
const TOO_LONG = /prompt is too long|context_length_exceeded|maximum context length|context (length|size|window)|too many (input )?tokens/i;

/**
 * True when the model refused the request because the prompt is longer than its context
 * window: a 400/413 whose message or error code says so. What compacting the conversation
 * and sending it again can fix.
 */
export function isContextTooLong(error: unknown): boolean {
  if (!ModelError.is(error, 'badRequest')) return false;
  if (error.status !== undefined && error.status !== 400 && error.status !== 413) return false;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return (typeof code === 'string' && TOO_LONG.test(code)) || TOO_LONG.test(error.message);
}
