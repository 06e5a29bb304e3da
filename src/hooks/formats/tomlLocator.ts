import type * as TomlParser from 'toml-eslint-parser';
import type { AST } from 'toml-eslint-parser';
import type { JsonSegment } from '../../configFiles/jsonPath';
import type { NodeLocator, TextSpan } from '../../configFiles/nodeLocator';

/**
 * Where a path of a parsed TOML document (`['hooks', 'PreToolUse', 0, 'hooks', 1, 'command']`)
 * is written in its text, so a diagnostic about a Codex `config.toml` names the line. smol-toml
 * gives values without positions; toml-eslint-parser's syntax tree has them, and resolves each
 * table header to its path (an array-of-tables header is the next index of its array). A table
 * is placed at its header, a `key = value` at its key and value, a table a dotted key or header
 * only implies where it is first named.
 */

/** Where one node is: its key (or header) and its value. */
interface Place {
  readonly key: TextSpan;
  readonly value: TextSpan;
}

/**
 * A locator over `text`, a TOML document that parsed. Never throws: a path it cannot place falls
 * back to its nearest placed ancestor (then to none: the diagnostic keeps its key path).
 */
export function tomlLocator(text: string): NodeLocator {
  let places: Map<string, Place> | undefined;
  return {
    locate(path, options) {
      try {
        places ??= readPlaces(text);
      } catch {
        places = new Map();
      }
      for (let n = path.length; n >= 0; n--) {
        const place = places.get(JSON.stringify(path.slice(0, n)));
        if (place) return options?.key === true && n === path.length ? place.key : place.value;
      }
      return undefined;
    },
  };
}

/** The parser is loaded on the first diagnostic that needs a place, not when the extension or CLI starts. */
function loadParser(): typeof TomlParser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load: esbuild turns it into require('./toml.js')
  return require('toml-eslint-parser') as typeof TomlParser;
}

function readPlaces(text: string): Map<string, Place> {
  const places = new Map<string, Place>();
  const record = (path: readonly JsonSegment[], place: Place, replace: boolean): void => {
    const id = JSON.stringify(path);
    if (replace || !places.has(id)) places.set(id, place);
  };
  /** `path` is placed here, and so is each table it implies (unless placed before). */
  const define = (path: readonly JsonSegment[], place: Place, from: number): void => {
    for (let n = from; n < path.length; n++) record(path.slice(0, n), { key: place.key, value: place.key }, false);
    record(path, place, true);
  };
  const keyValue = (table: readonly JsonSegment[], node: AST.TOMLKeyValue): void => {
    const path = [...table, ...node.key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value))];
    define(path, { key: span(node.key), value: span(node.value) }, table.length + 1);
    value(path, node.value);
  };
  const value = (path: readonly JsonSegment[], node: AST.TOMLContentNode): void => {
    if (node.type === 'TOMLArray')
      node.elements.forEach((element, i) => {
        record([...path, i], { key: span(element), value: span(element) }, true);
        value([...path, i], element);
      });
    else if (node.type === 'TOMLInlineTable') for (const kv of node.body) keyValue(path, kv);
  };

  const root = loadParser().parseTOML(text).body[0];
  for (const node of root.body) {
    if (node.type === 'TOMLKeyValue') {
      keyValue([], node);
      continue;
    }
    const header = headerSpan(text, node);
    // An array-of-tables header also places its array (at its first header) and the tables it implies.
    define(node.resolvedKey, { key: header, value: header }, 1);
    for (const kv of node.body) keyValue(node.resolvedKey, kv);
  }
  return places;
}

/** `[a.b]` or `[[a.b]]`: a table's node spans its body too. */
function headerSpan(text: string, table: AST.TOMLTable): TextSpan {
  const close = text.indexOf(']', table.key.range[1]);
  const end = close < 0 ? table.key.range[1] : close + (table.kind === 'array' ? 2 : 1);
  return { offset: table.range[0], length: end - table.range[0] };
}

function span(node: AST.TOMLNode): TextSpan {
  return { offset: node.range[0], length: node.range[1] - node.range[0] };
}
