import type { JsonSegment } from '../config/jsonPath';

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
