import { z } from 'zod';
import { lazySchema } from '../../shared/lazySchema';

/**
 * The model request and reply as model-level hooks see them (docs/hooks.md "Model-level
 * hooks"), in Gemini CLI's decoupled shapes (`LLMRequest`, `LLMResponse`, `HookToolConfig`)
 * so a Gemini BeforeModel / AfterModel / BeforeToolSelection hook reads and writes them
 * unchanged. Where Hookwise carries more than Gemini's text-only v1 shape, the extra fields
 * are additions a Gemini hook ignores: `tool_calls` on model messages and replies, `tool`
 * messages (tool results), `tools` (the offered tools), `config.systemInstruction` (the
 * system prompt, Gemini's GenerateContentConfig name) and `truncated` (a cut input).
 */

/** Most messages a hook may send back in `llm_request.messages`. */
export const MAX_LLM_MESSAGES = 10_000;
/** Longest text of one message, reply or system prompt a hook may write (UTF-16 units). */
export const MAX_LLM_TEXT = 2_000_000;

const text = z.string().max(MAX_LLM_TEXT);

/** A tool call inside a model message or reply: Hookwise's addition (Gemini v1 drops non-text parts). */
export const llmToolCallSchema = lazySchema(() =>
  z.strictObject({
    id: z.string().min(1).max(200),
    name: z.string().min(1).max(200),
    /** The arguments as JSON text, as the model wrote them. */
    arguments: z.string().max(MAX_LLM_TEXT),
  }),
);
/** One tool call. */
export type LlmToolCall = z.infer<typeof llmToolCallSchema>;

/**
 * One message. `model` is Gemini's name for the assistant (`assistant` is read as `model`);
 * `tool` carries a tool result for the call `tool_call_id`. Content parts (Gemini's
 * `[{type, …}]`) are read for their `text`.
 */
export const llmMessageSchema = lazySchema(() =>
  z.object({
    role: z.enum(['user', 'model', 'assistant', 'system', 'tool']),
    content: z.union([text, z.array(z.object({ type: z.string().optional(), text: z.string().optional() }).loose()).max(1000)]),
    tool_calls: z.array(llmToolCallSchema).max(500).optional(),
    tool_call_id: z.string().max(200).optional(),
  }),
);
/** One message as a hook writes it. */
export type LlmMessage = z.infer<typeof llmMessageSchema>;

/** Gemini's `HookToolConfig`: `NONE` offers no tool, `ANY` requires one, `AUTO` lets the model choose. */
export const hookToolConfigSchema = lazySchema(() =>
  z.object({
    mode: z.enum(['AUTO', 'ANY', 'NONE']).optional(),
    allowedFunctionNames: z.array(z.string().max(200)).max(1000).optional(),
  }),
);
/** A tool configuration. */
export type HookToolConfig = z.infer<typeof hookToolConfigSchema>;

/** Generation settings; unknown keys pass (Gemini's `[key: string]: unknown`) and are ignored. */
export const llmConfigSchema = lazySchema(() =>
  z
    .object({
      temperature: z.number().min(0).max(10).optional(),
      maxOutputTokens: z.number().int().positive().max(10_000_000).optional(),
      topP: z.number().min(0).max(1).optional(),
      topK: z.number().optional(),
      stopSequences: z.array(z.string().max(1000)).max(16).optional(),
      presencePenalty: z.number().min(-2).max(2).optional(),
      frequencyPenalty: z.number().min(-2).max(2).optional(),
      systemInstruction: text.optional(),
    })
    .loose(),
);
/** Generation settings as a hook writes them. */
export type LlmConfig = z.infer<typeof llmConfigSchema>;

/** What a BeforeInference hook may send back as `llm_request`: every field optional, present ones replace. */
export const llmRequestPatchSchema = lazySchema(() =>
  z
    .object({
      model: z.string().min(1).max(200).optional(),
      messages: z.array(llmMessageSchema).max(MAX_LLM_MESSAGES).optional(),
      config: llmConfigSchema.optional(),
      toolConfig: hookToolConfigSchema.optional(),
    })
    .loose(),
);
/** A request rewrite. */
export type LlmRequestPatch = z.infer<typeof llmRequestPatchSchema>;

/**
 * Gemini's `LLMResponse`: the reply text is `candidates[0].content.parts` joined (or `text`
 * when there is no candidate). `tool_calls` (Hookwise's) replaces the reply's tool calls when
 * present; absent keeps them, so a Gemini redactor that only rewrites the text keeps the calls.
 */
export const llmResponseSchema = lazySchema(() =>
  z
    .object({
      text: text.optional(),
      candidates: z
        .array(
          z
            .object({
              content: z.object({ role: z.string().optional(), parts: z.array(text).max(1000) }).loose(),
              finishReason: z.string().max(100).optional(),
            })
            .loose(),
        )
        .max(8)
        .optional(),
      tool_calls: z.array(llmToolCallSchema).max(500).optional(),
      usageMetadata: z.record(z.string(), z.unknown()).optional(),
    })
    .loose()
    .refine((r) => r.text !== undefined || (r.candidates?.length ?? 0) > 0 || r.tool_calls !== undefined, {
      message: 'an llm_response needs text, a candidate or tool_calls',
    }),
);
/** A reply as a hook writes it. */
export type LlmResponse = z.infer<typeof llmResponseSchema>;

/** The text of a message's content (parts joined). */
export function llmContentText(content: LlmMessage['content']): string {
  return typeof content === 'string' ? content : content.map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/** The text of a reply: its first candidate's parts joined, else `text`. */
export function llmResponseText(response: LlmResponse): string {
  const first = response.candidates?.[0];
  return first !== undefined ? first.content.parts.join('') : (response.text ?? '');
}
