import { z } from 'zod';
import { parseBoundedJson } from '../../shared/boundedJson';

/**
 * The answer a prompt (or agent) hook's model must give: `{ok: boolean, reason?: string}`. Non-strict: extra keys are ignored.
 */
export const promptHookAnswerSchema = z.object({
  ok: z.boolean(),
  reason: z.string().nullish(),
});

/** A validated answer. */
export type PromptHookAnswer = z.infer<typeof promptHookAnswerSchema>;

/** JSON Schema of the answer, sent as the structured-output response format. */
export const promptHookAnswerJsonSchema: Readonly<Record<string, unknown>> = {
  type: 'object',
  properties: {
    ok: { type: 'boolean', description: 'true if the condition is met' },
    reason: { type: 'string', description: 'why the condition is not met (when ok is false)' },
  },
  required: ['ok'],
  additionalProperties: false,
};

/** Parse result: the answer, or what was wrong with the text. */
export type PromptHookParse = { readonly ok: true; readonly answer: PromptHookAnswer } | { readonly ok: false; readonly problem: string };

/**
 * Parses a model's answer tolerantly, because endpoints without structured output wrap JSON
 * in prose or Markdown fences: strips ```json fences, then tries the whole text, then the
 * first balanced `{…}` object in it, and validates with {@link promptHookAnswerSchema}.
 */
export function parsePromptHookAnswer(text: string): PromptHookParse {
  const unfenced = text.replace(/```(?:json|JSON)?\s*([\s\S]*?)```/g, '$1').trim();
  const candidates = [unfenced];
  const object = firstJsonObject(unfenced);
  if (object !== undefined && object !== unfenced) candidates.push(object);
  let lastProblem = 'no JSON object found';
  for (const candidate of candidates) {
    const read = parseBoundedJson(candidate);
    if (!read.ok) {
      if (read.problem !== 'syntax') lastProblem = `the answer is ${read.error}`;
      continue;
    }
    const checked = promptHookAnswerSchema.safeParse(read.value);
    if (checked.success) return { ok: true, answer: checked.data };
    lastProblem = checked.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  }
  return { ok: false, problem: lastProblem };
}

/** The first balanced `{…}` in `text` (braces inside JSON strings are skipped), if any. */
function firstJsonObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}
