import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { findExcessNesting } from '../../configFiles/configLimits';
import { formatJsonPath } from '../../configFiles/jsonPath';
import { readFormatFileText } from '../formats/formatFileRead';
import type { FormatHookEntry, HookFormatId } from '../formats/hookFormat';
import type { LocatedHook, TextRange } from './hookLocations';

/** Handlers located per document, as for `.claude` files. */
const MAX_LOCATED = 500;
/** Fields another agent's entry names its command in (Copilot `bash`/`powershell`, the others `command`). */
const COMMAND_FIELDS = ['command', 'bash', 'powershell'] as const;

/** Another agent's hooks file, as the loader read it: which adapter reads it and where it is. */
export interface FormatDocument {
  readonly id: HookFormatId;
  /** Absolute path: some agents read meaning from the name (a Cline script is named after its event). */
  readonly file: string;
  readonly displayFile: string;
  readonly scope: 'user' | 'project';
}

/**
 * The hooks of another agent's file, read by the same adapter the loader uses, so ids are the
 * loaded hooks' own (`Copilot .github/hooks/guard.json › hooks.preToolUse[0]`). A JSON entry spans
 * its object, its body the command string; a TOML entry (Codex config.toml) spans its command
 * string; a whole-file hook (a Cline script) spans line 1. Entries that cannot be placed are left out.
 */
export function locateFormatHooks(text: string, label: string, doc: FormatDocument): LocatedHook[] {
  if (findExcessNesting(text) !== undefined) return [];
  const content = readFormatFileText(doc.id, text, { file: doc.file, displayFile: doc.displayFile, scope: doc.scope });
  const json = /\.jsonc?$/i.test(doc.file) ? parseTree(text, [], { allowTrailingComma: true, disallowComments: false }) : undefined;
  let searchFrom = 0;
  const located: LocatedHook[] = [];
  for (const entry of content.hooks.slice(0, MAX_LOCATED)) {
    const jsonPath = formatJsonPath(entry.path);
    let spans: { range: TextRange; body?: TextRange } | undefined;
    if (entry.path.length === 0) spans = { range: { offset: 0, length: firstLineLength(text) } };
    else if (json !== undefined) spans = jsonSpans(json, entry);
    else {
      // No tree to walk (TOML): the command's string literal, in file order.
      const body = findLiteral(text, entry.command, searchFrom) ?? findLiteral(text, entry.command, 0);
      if (body !== undefined) {
        searchFrom = body.offset + body.length;
        spans = { range: body, body };
      }
    }
    if (spans === undefined) continue;
    located.push({
      // As describeSource names the loaded hook: a whole-file hook by its file alone.
      id: jsonPath === '' ? label : `${label} › ${jsonPath}`,
      jsonPath,
      event: entry.event,
      nativeEvent: entry.binding.nativeEvent,
      ...(entry.binding.matcher !== undefined ? { matcher: entry.binding.matcher } : {}),
      handler: { type: 'command', command: entry.command },
      range: spans.range,
      ...(spans.body !== undefined ? { body: { field: 'command', ...spans.body } } : {}),
    });
  }
  return located;
}

function firstLineLength(text: string): number {
  const end = text.indexOf('\n');
  return end === -1 ? text.length : end;
}

/** The entry's object and the string it names its command in. */
function jsonSpans(root: JsonNode, entry: FormatHookEntry): { range: TextRange; body?: TextRange } | undefined {
  const node = findNodeAtLocation(root, [...entry.path]);
  if (!node) return undefined;
  const range = { offset: node.offset, length: node.length };
  for (const field of COMMAND_FIELDS) {
    const value = node.type === 'object' ? findNodeAtLocation(node, [field]) : undefined;
    if (value?.type === 'string' && value.value === entry.command) return { range, body: { offset: value.offset, length: value.length } };
  }
  return { range };
}

/** The first TOML string literal (basic or literal quotes) holding exactly `value`, at or after `from`. */
function findLiteral(text: string, value: string, from: number): TextRange | undefined {
  for (const literal of [JSON.stringify(value), `'${value}'`]) {
    const at = text.indexOf(literal, from);
    if (at !== -1) return { offset: at, length: literal.length };
  }
  return undefined;
}
