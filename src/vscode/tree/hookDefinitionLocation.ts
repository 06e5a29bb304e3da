import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { HookSource } from '../../hooks/hookSource';
import type { JsonSegment } from '../../hooks/config/jsonPath';

/**
 * Where "Go to Hook Definition" lands: the file of a hook's source and the offset of its
 * handler in that file. Pure (text in, span out); the command does the I/O.
 */

/** Parses a display JSON path (`hooks.PreToolUse[0].hooks[1]`, `hooks["Pre Tool"][0]`) into segments. */
export function parseJsonPath(path: string): JsonSegment[] {
  const segments: JsonSegment[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(Number(m[2]));
    else if (m[3] !== undefined) segments.push(JSON.parse(m[3]) as string);
  }
  return segments;
}

/** Candidate paths of a source's handler inside its file (settings keys are flat: `hookwise.hooks`). */
export function candidatePaths(source: HookSource): JsonSegment[][] {
  if (source.kind === 'file') return [parseJsonPath(source.jsonPath)];
  if (source.kind === 'settings') {
    const prefix = 'hookwise.hooks';
    const rest = source.jsonPath.startsWith(prefix) ? parseJsonPath(source.jsonPath.slice(prefix.length)) : parseJsonPath(source.jsonPath);
    // settings.json has the flat key; a .code-workspace nests it under "settings".
    return [
      [prefix, ...rest],
      ['settings', prefix, ...rest],
    ];
  }
  return [];
}

/**
 * Offset and length of the handler in `text`, or of its nearest existing ancestor when the
 * file changed since the run; undefined when nothing of the path is there.
 */
export function locateHookDefinition(text: string, source: HookSource): { offset: number; length: number } | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) return undefined;
  let best: { offset: number; length: number; depth: number } | undefined;
  for (const path of candidatePaths(source)) {
    for (let n = path.length; n > 0; n--) {
      const node = findNodeAtLocation(root, path.slice(0, n));
      if (!node) continue;
      if (!best || n > best.depth) best = { offset: node.offset, length: node.length, depth: n };
      break;
    }
  }
  return best ? { offset: best.offset, length: best.length } : undefined;
}

/** The file that holds a source's handler, when it is a file (code hooks have none). */
export function definitionFile(source: HookSource): string | undefined {
  if (source.kind === 'file') return source.file;
  if (source.kind === 'settings') return source.file;
  return undefined;
}
