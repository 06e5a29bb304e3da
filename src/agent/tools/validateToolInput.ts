import type { z } from 'zod';
import type { AgentTool } from './tool';
import { checkValueBounds, parseBoundedJson } from '../../shared/boundedJson';

/** Result of validating a tool call's arguments: the parsed input, or a message for the model. */
export type ToolInputValidation<I> = { readonly ok: true; readonly input: I } | { readonly ok: false; readonly error: string };

/**
 * Validates raw tool-call arguments against the tool's zod schema, before PreToolUse runs.
 * Unknown keys are stripped. On failure the message names the tool, the key and the
 * problem, one clause per issue, e.g. `Edit: "old_string" is required`, so the model can
 * correct the call. A JSON string is parsed first (adapters may hand arguments over raw).
 * Arguments nested deeper than 64 levels are refused ("tool arguments nested deeper than 64
 * levels"). Never throws.
 */
export function validateToolInput<I>(tool: Pick<AgentTool<I>, 'name' | 'inputSchema'>, rawArgs: unknown): ToolInputValidation<I> {
  let args = rawArgs;
  if (typeof args === 'string') {
    const parsed = parseBoundedJson(args === '' ? '{}' : args);
    if (!parsed.ok)
      return {
        ok: false,
        error: parsed.problem === 'syntax' ? `${tool.name}: arguments are not valid JSON (${parsed.error})` : `${tool.name}: tool arguments ${parsed.error}`,
      };
    args = parsed.value;
  }
  if (args === undefined || args === null) args = {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    return { ok: false, error: `${tool.name}: arguments must be a JSON object, got ${describeValue(args)}` };
  }
  // Deep values overflow the stack downstream (zod on nested schemas, JSON.stringify of the input).
  const tooBig = checkValueBounds(args);
  if (tooBig !== undefined) return { ok: false, error: `${tool.name}: tool arguments ${tooBig}` };
  const parsed = tool.inputSchema.safeParse(args);
  if (parsed.success) return { ok: true, input: parsed.data };
  const clauses = parsed.error.issues.map((issue) => describeIssue(issue, args));
  return { ok: false, error: `${tool.name}: ${[...new Set(clauses)].join('; ')}` };
}

/** One issue as `"key" <problem>`, judged against the raw value so "missing" reads as "required". */
function describeIssue(issue: z.core.$ZodIssue, args: unknown): string {
  const key = formatPath(issue.path);
  const subject = key === '' ? 'input' : `"${key}"`;
  const value = valueAt(args, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return `${subject} is required`;
      return `${subject} must be ${article(issue.expected)}, got ${describeValue(value)}`;
    case 'invalid_value':
      return `${subject} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(value)}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${subject} must not be empty`;
      if (issue.origin === 'array') return `${subject} must have at least ${String(issue.minimum)} item(s)`;
      return `${subject} must be ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `${subject} must be at most ${String(issue.maximum)} characters`;
      if (issue.origin === 'array') return `${subject} must have at most ${String(issue.maximum)} item(s)`;
      return `${subject} must be ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}`;
    default:
      return `${subject}: ${issue.message}`;
  }
}

/** `todos[0].status` style. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** Zod's type names as a model reads them: `int` → `an integer`. */
function article(type: string): string {
  const word = type === 'int' ? 'integer' : type;
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}
