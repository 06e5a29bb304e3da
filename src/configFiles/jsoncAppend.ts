import type { Edit, FormattingOptions, Node as JsonNode } from 'jsonc-parser';

/**
 * Appends an element to a non-empty JSONC array or a property to a non-empty object
 * without touching a single existing character: jsonc-parser's `modify` reformats the line
 * it edits (expanding a one-line neighbour and moving its trailing `// comment` after the
 * new entry), which is exactly what a user's hand-written settings file must not suffer.
 * Returns undefined for an empty container (then `modify` is harmless).
 */
export function appendToContainer(text: string, container: JsonNode, key: string | undefined, value: unknown, fmt: FormattingOptions): Edit[] | undefined {
  const last = container.children?.[container.children.length - 1];
  if (!last) return undefined;
  const lastEnd = last.offset + last.length;
  const eol = fmt.eol ?? '\n';
  const lineStart = text.lastIndexOf('\n', last.offset - 1) + 1;
  const leading = text.slice(lineStart, last.offset);
  const ownLine = /^[ \t]*$/.test(leading);
  // After the last entry: an optional trailing comma, then only comments up to the line break.
  const rest = /^([ \t]*)(,?)((?:[ \t]*(?:\/\/[^\r\n]*|\/\*(?:(?!\*\/)[^\r\n])*\*\/))*)[ \t]*(?=\r?\n)/.exec(text.slice(lastEnd));
  const lastText = text.slice(last.offset, lastEnd);
  const oneLine = !lastText.includes('\n');
  const prefix = key === undefined ? '' : `${JSON.stringify(key)}: `;
  if (ownLine && rest) {
    const indent = leading;
    const unit = fmt.insertSpaces === false ? '\t' : ' '.repeat(fmt.tabSize ?? 2);
    const body = oneLine && key === undefined ? inlineJson(value) : JSON.stringify(value, null, unit).replace(/\n/g, eol + indent);
    const hadComma = rest[2] === ',';
    const lineEnd = lastEnd + rest[0].length;
    const edits: Edit[] = [];
    if (!hadComma) edits.push({ offset: lastEnd, length: 0, content: ',' });
    edits.push({ offset: lineEnd, length: 0, content: `${eol}${indent}${prefix}${body}${hadComma ? ',' : ''}` });
    return edits;
  }
  return [{ offset: lastEnd, length: 0, content: `, ${prefix}${inlineJson(value)}` }];
}

/** JSON on one line with a space after `:` and `,` and inside braces: `{ "type": "command", "command": "x" }`. */
export function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map(inlineJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}
