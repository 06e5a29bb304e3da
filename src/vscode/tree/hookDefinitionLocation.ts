import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { HookSource } from '../../configFiles/hookSource';
import { parseJsonPath, type JsonSegment } from '../../configFiles/jsonPath';

/**
 * Where "Go to Hook Definition" lands: the file of a hook's source and the offset of its
 * handler in that file. Pure (text in, span out); the command does the I/O.
 */

/** Candidate paths of a source's handler inside its file (settings keys are flat: `hookwise.hooks`). */
export function candidatePaths(source: HookSource): JsonSegment[][] {
  if (source.kind === 'file') return [parseJsonPath(source.jsonPath) ?? []];
  if (source.kind === 'settings') {
    const prefix = 'hookwise.hooks';
    const rest = parseJsonPath(source.jsonPath.startsWith(prefix) ? source.jsonPath.slice(prefix.length) : source.jsonPath) ?? [];
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
