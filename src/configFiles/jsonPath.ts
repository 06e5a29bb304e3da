/**
 * JSON paths as users read them: `hooks.PreToolUse[0].hooks[1]`. Segments are kept as an
 * array for tree lookups (jsonc-parser, yaml) and formatted only for display.
 */

/** One step into a JSON value: an object key or an array index. */
export type JsonSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Formats `segments` after an optional literal `root` label. The root is printed as is,
 * so a VS Code flat settings key keeps its dots: `formatJsonPath(['PreToolUse', 0], 'hookwise.hooks')`
 * → `hookwise.hooks.PreToolUse[0]`. Keys that are not identifiers are quoted: `hooks["Pre Tool"]`.
 */
export function formatJsonPath(segments: readonly JsonSegment[], root?: string): string {
  let out = root ?? '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Parses a path formatJsonPath wrote (`hooks.PreToolUse[0].hooks[1].command`) back into segments; undefined when it is not one. */
export function parseJsonPath(text: string): JsonSegment[] | undefined {
  const segments: JsonSegment[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/gy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < text.length) {
    if (text[at] === '.') at++;
    re.lastIndex = at;
    match = re.exec(text);
    if (match === null) return undefined;
    segments.push(match[2] !== undefined ? Number(match[2]) : match[3] !== undefined ? (JSON.parse(`"${match[3]}"`) as string) : match[1]!);
    at = re.lastIndex;
  }
  return segments;
}
