/**
 * JSON from outside (hook stdout, model tool arguments, prompt-hook answers, rewritten tool
 * input) parsed and checked with limits. `JSON.parse` itself copes with 200,000 levels, but
 * the code downstream does not: `JSON.stringify` and `structuredClone` throw `RangeError:
 * Maximum call stack size exceeded` at ~5,000 levels, which ended whole runs (docs/security.md).
 * So every boundary rejects deep values up front, with a message that names the cause.
 */
import { thrownMessage } from './describeThrown';

/** Deepest nesting accepted from outside JSON: `{}` is 1 level, `{"a":[1]}` is 2. */
export const MAX_JSON_DEPTH = 64;

/**
 * Most values (objects, arrays and scalars) walked in an in-memory value: bounds the work of
 * {@link checkValueBounds} on shared or cyclic references ({a: x, b: x} nested 64 deep is 2^64).
 */
export const MAX_JSON_NODES = 1_000_000;

/** Limits of {@link parseBoundedJson}. */
export interface JsonTextLimits {
  /** Default {@link MAX_JSON_DEPTH}. */
  readonly maxDepth?: number;
  /** Longest accepted text in UTF-16 code units; default unlimited (callers usually cap bytes already). */
  readonly maxChars?: number;
}

/** Why a text or value was refused. */
export type BoundedJsonProblem = 'syntax' | 'depth' | 'size';

/** The parsed value, or why there is none. `error` reads as a clause: "nested deeper than 64 levels". */
export type BoundedJsonResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: BoundedJsonProblem; readonly error: string };

/** "nested deeper than 64 levels": the wording every boundary uses. */
export function deeperThan(maxDepth: number): string {
  return `nested deeper than ${maxDepth} levels`;
}

/**
 * Nesting depth of JSON text, counting `{`/`[` outside strings; stops counting as soon as it
 * passes `limit` (so the answer is at most `limit + 1`). Linear, no allocation. Malformed text
 * gives a meaningless but finite number: the parser reports the syntax.
 */
export function jsonTextDepth(text: string, limit = MAX_JSON_DEPTH): number {
  // Fewer characters than levels cannot nest that deep: skip the scan (most hook output).
  if (text.length <= limit) return 0;
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/**
 * `JSON.parse` with a depth limit (checked on the text first, so a deep value is never built)
 * and an optional size limit. Never throws.
 */
export function parseBoundedJson(text: string, limits: JsonTextLimits = {}): BoundedJsonResult {
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  if (limits.maxChars !== undefined && text.length > limits.maxChars) return { ok: false, problem: 'size', error: `larger than ${limits.maxChars} characters` };
  if (jsonTextDepth(text, maxDepth) > maxDepth) return { ok: false, problem: 'depth', error: deeperThan(maxDepth) };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: 'syntax', error: thrownMessage(error) };
  }
}

/** Limits of {@link checkValueBounds}. */
export interface JsonValueLimits {
  /** Default {@link MAX_JSON_DEPTH}. */
  readonly maxDepth?: number;
  /** Default {@link MAX_JSON_NODES}. */
  readonly maxNodes?: number;
}

/**
 * Checks an in-memory value (an in-process hook's result, a merged rewrite) against the same
 * limits, walking it without recursion. Returns undefined when within bounds, else the clause
 * ("nested deeper than 64 levels", "has more than 1000000 values"); a cycle reads as too deep.
 */
export function checkValueBounds(value: unknown, limits: JsonValueLimits = {}): string | undefined {
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  const maxNodes = limits.maxNodes ?? MAX_JSON_NODES;
  if (value === null || typeof value !== 'object') return undefined;
  const stack: { readonly value: object; readonly depth: number }[] = [{ value, depth: 1 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: object; depth: number };
    if (depth > maxDepth) return deeperThan(maxDepth);
    const children: unknown[] = Array.isArray(current) ? current : Object.values(current);
    nodes += 1 + children.length;
    if (nodes > maxNodes) return `has more than ${maxNodes} values`;
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return undefined;
}
