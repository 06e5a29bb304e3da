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
