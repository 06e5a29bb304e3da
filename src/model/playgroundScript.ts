/**
 * The Playground's script file: a scripted session of model turns, replayed by
 * `PlaygroundModelClient` through the real loop, tools and hooks with no network.
 *
 * ```jsonc
 * { "name": "deny rm",
 *   "turns": [
 *     { "text": "Let me clean up.", "toolCalls": [{ "name": "Bash", "input": { "command": "rm -rf build" } }] },
 *     { "toolCalls": [{ "name": "Bash", "arguments": "{\"command\": \"ls" }] },   // broken JSON on purpose
 *     { "text": "Done." } ] }
 * ```
 *
 * Comments and trailing commas are allowed (it is a hand-written file). Parsing never
 * throws: it returns a result whose error names the file and the JSON path, e.g.
 * `demo.json › turns[2].toolCalls[0].name: expected string, received number`.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import { z } from 'zod';
import { checkValueBounds } from '../shared/boundedJson';
import { thrownMessage } from '../shared/describeThrown';
import { lazySchema } from '../shared/lazySchema';

/** One scripted tool call; `argumentsText` is sent to the loop as is. */
export interface PlaygroundToolCall {
  readonly id?: string;
  readonly name: string;
  readonly argumentsText: string;
}

/** One model turn: what the "model" answers to the next call. */
export interface PlaygroundTurn {
  readonly text?: string;
  readonly toolCalls?: readonly PlaygroundToolCall[];
}

/** A validated script. */
export interface PlaygroundScript {
  readonly name?: string;
  readonly description?: string;
  /**
   * The script's text tells what the workspace's project hooks decided (a tour): it plays only
   * while they are on, else the host answers why not (PlaygroundModelClientOptions.gate).
   */
  readonly requiresProjectHooks?: boolean;
  readonly turns: readonly PlaygroundTurn[];
}

/** Parse result: never a throw. */
export type PlaygroundScriptResult = { readonly ok: true; readonly script: PlaygroundScript } | { readonly ok: false; readonly error: string };

const toolCallSchema = lazySchema(() =>
  z
    .strictObject({
      id: z.string().min(1).optional(),
      name: z.string().min(1),
      /** The tool input as a JSON object (the usual case). */
      input: z.record(z.string(), z.unknown()).optional(),
      /** The raw arguments text — use it to script malformed JSON. */
      arguments: z.string().optional(),
    })
    // JSON.stringify below overflows the stack on an input thousands of levels deep.
    .superRefine((call, ctx) => {
      const tooBig = checkValueBounds(call.input);
      if (tooBig !== undefined) ctx.addIssue({ code: 'custom', message: `"input" is ${tooBig}`, path: ['input'] });
    })
    .refine((call) => call.input === undefined || call.arguments === undefined, {
      message: 'give either "input" (an object) or "arguments" (raw text), not both',
    })
    .transform(({ input, arguments: raw, ...rest }): PlaygroundToolCall => ({
      ...rest,
      argumentsText: raw ?? JSON.stringify(input ?? {}),
    })),
);

const turnSchema = lazySchema(() =>
  z
    .strictObject({
      text: z.string().optional(),
      toolCalls: z.array(toolCallSchema).optional(),
      /** A note for the script's reader; ignored. */
      comment: z.string().optional(),
    })
    .refine((turn) => turn.text !== undefined || turn.toolCalls !== undefined, { message: 'a turn needs "text" or "toolCalls"' })
    .transform(({ comment: _comment, ...turn }): PlaygroundTurn => turn),
);

/** zod schema of a script file (after JSONC parsing). */
export const playgroundScriptSchema = lazySchema(() =>
  z.strictObject({
    $schema: z.string().optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    requiresProjectHooks: z.boolean().optional(),
    turns: z.array(turnSchema),
  }),
);

/** Validates an already-parsed value; `source` names it in error messages (a file name). */
export function parsePlaygroundScript(value: unknown, source = 'playground script'): PlaygroundScriptResult {
  const parsed = playgroundScriptSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue === undefined) return { ok: false, error: `${source}: invalid playground script` };
    return { ok: false, error: `${source} › ${formatPath(issue.path)}: ${issueText(issue)}` };
  }
  const { $schema: _schema, ...script } = parsed.data;
  return { ok: true, script };
}

/** Parses JSON-with-comments text, then validates it. */
export function parsePlaygroundScriptText(text: string, source = 'playground script'): PlaygroundScriptResult {
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch {
    // jsonc-parser recurses: text thousands of levels deep overflows the stack.
    return { ok: false, error: `${source}: not valid JSON (nested too deep to read)` };
  }
  const first = errors[0];
  if (first !== undefined) {
    const { line, column } = lineColumn(text, first.offset);
    return { ok: false, error: `${source}:${line}:${column}: not valid JSON (${printParseErrorCode(first.error)})` };
  }
  return parsePlaygroundScript(value, source);
}

/** Reads and validates a script file; a missing or unreadable file is an error result too. */
export async function loadPlaygroundScript(path: string): Promise<PlaygroundScriptResult> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why = code === 'ENOENT' ? 'file not found' : thrownMessage(error);
    return { ok: false, error: `${path}: cannot read playground script (${why})` };
  }
  return parsePlaygroundScriptText(text, path);
}

/** `turns[2].toolCalls[0].name`; the root is `(root)`. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

function issueText(issue: z.core.$ZodIssue): string {
  // zod's "Invalid input: expected string, received number" → "expected string, received number".
  return issue.message.replace(/^Invalid input: /, '');
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}
