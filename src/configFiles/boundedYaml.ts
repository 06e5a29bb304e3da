import type { Document } from 'yaml';
import { findExcessNesting, MAX_CONFIG_DEPTH, MAX_YAML_ALIASES } from './configLimits';
import { describeThrown } from '../shared/describeThrown';
import { yamlLib } from './yamlLib';

/** A parsed YAML document within the limits, or why not (with the offset in `text` when known). */
export type BoundedYamlResult =
  { readonly ok: true; readonly doc: Document; readonly value: unknown } | { readonly ok: false; readonly message: string; readonly offset: number };

/**
 * Parses YAML from outside input (agent frontmatter) with limits: nesting depth
 * (MAX_CONFIG_DEPTH, checked without recursion before and after parsing) and alias expansions
 * (MAX_YAML_ALIASES, so an alias bomb is refused instead of expanded). Never throws.
 */
export function parseBoundedYaml(text: string): BoundedYamlResult {
  // Flow collections (`[[[[…`) nest cheaply; refuse them before the recursive parser sees them.
  const flowExcess = findExcessNesting(text);
  if (flowExcess !== undefined) return { ok: false, message: `nested deeper than ${MAX_CONFIG_DEPTH} levels`, offset: flowExcess };
  let doc: Document;
  try {
    doc = yamlLib().parseDocument(text, { prettyErrors: false });
  } catch (error) {
    return { ok: false, message: `cannot be parsed (${describeThrown(error)})`, offset: 0 };
  }
  const first = doc.errors[0];
  if (first) return { ok: false, message: `is not valid YAML (${first.message.split('\n')[0] ?? 'parse error'})`, offset: first.pos[0] };
  const deep = deepNode(doc.contents, MAX_CONFIG_DEPTH);
  if (deep !== undefined) return { ok: false, message: `nested deeper than ${MAX_CONFIG_DEPTH} levels`, offset: deep };
  try {
    return { ok: true, doc, value: doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }) };
  } catch (error) {
    // yaml throws a ReferenceError for "excessive alias count"; anything else is reported too.
    const aliasBomb = error instanceof ReferenceError && /alias/i.test(error.message);
    return {
      ok: false,
      message: aliasBomb ? `uses aliases too much (over ${MAX_YAML_ALIASES} expansions; a YAML alias bomb?)` : `cannot be read (${describeThrown(error)})`,
      offset: 0,
    };
  }
}

/** Start offset of the first node nested deeper than `max`, walking with an explicit stack. */
function deepNode(root: unknown, max: number): number | undefined {
  const { isMap, isPair, isSeq } = yamlLib();
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (isMap(node) || isSeq(node)) {
      if (depth + 1 > max) return node.range?.[0] ?? 0;
      for (const item of node.items as unknown[]) stack.push({ node: item, depth: depth + 1 });
    } else if (isPair(node)) {
      stack.push({ node: node.key, depth }, { node: node.value, depth });
    }
    // Aliases are resolved by toJS under maxAliasCount; their anchors were walked where they stand.
  }
  return undefined;
}
