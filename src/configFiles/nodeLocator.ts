import { findNodeAtLocation, type Node as JsonNode } from 'jsonc-parser';
import type { Document, Node as YamlNode } from 'yaml';
import type { JsonSegment } from './jsonPath';
import { yamlLib } from './yamlLib';

/** Span of a node in the source text (0-based offset). */
export interface TextSpan {
  readonly offset: number;
  readonly length: number;
}

/**
 * Finds where a JSON path lives in a source text, so diagnostics carry line and column.
 * Paths are relative to the hooks-bearing document root. When the exact node does not
 * exist (a missing field), the nearest existing ancestor is returned instead.
 */
export interface NodeLocator {
  /** `key: true` points at the property name rather than its value (unknown keys). */
  locate(path: readonly JsonSegment[], options?: { readonly key?: boolean }): TextSpan | undefined;
}

/** A locator over a jsonc-parser tree; `prefix` is prepended to every path (e.g. `['hookwise.hooks']`). */
export function jsoncLocator(root: JsonNode | undefined, prefix: readonly JsonSegment[] = []): NodeLocator {
  return {
    locate(path, options) {
      if (!root) return undefined;
      const full = [...prefix, ...path];
      for (let n = full.length; n >= 0; n--) {
        const node = findNodeAtLocation(root, full.slice(0, n));
        if (!node) continue;
        const wantKey = options?.key === true && n === full.length && node.parent?.type === 'property';
        const target = wantKey ? (node.parent?.children?.[0] ?? node) : node;
        return { offset: target.offset, length: target.length };
      }
      return undefined;
    },
  };
}

/** A locator over a parsed YAML document whose text starts at `baseOffset` in the file. */
export function yamlLocator(doc: Document, baseOffset: number): NodeLocator {
  // A document exists, so yaml is loaded already.
  const { isMap, isScalar, isSeq } = yamlLib();
  return {
    locate(path, options) {
      let node: unknown = doc.contents;
      let best: TextSpan | undefined = spanOf(node, baseOffset);
      for (let i = 0; i < path.length; i++) {
        const segment = path[i];
        const last = i === path.length - 1;
        if (isMap(node)) {
          const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === segment);
          if (!pair) break;
          if (last && options?.key === true) return spanOf(pair.key, baseOffset) ?? best;
          node = pair.value;
        } else if (isSeq(node) && typeof segment === 'number') {
          node = node.items[segment];
        } else {
          break;
        }
        best = spanOf(node, baseOffset) ?? best;
      }
      return best;
    },
  };
}

function spanOf(node: unknown, baseOffset: number): TextSpan | undefined {
  const range = (node as YamlNode | undefined)?.range;
  if (!range) return undefined;
  return { offset: baseOffset + range[0], length: Math.max(0, range[1] - range[0]) };
}
