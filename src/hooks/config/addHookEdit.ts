import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, type Edit, type FormattingOptions } from 'jsonc-parser';
import { findExcessNesting, MAX_CONFIG_DEPTH } from '../../configFiles/configLimits';
import type { HookEvent } from '../hookEvent';
import { hookHandlerSchema, type HookHandlerConfig } from './hookConfigSchema';
import { formatJsonPath, type JsonSegment } from '../../configFiles/jsonPath';
import { appendToContainer } from '../../configFiles/jsoncAppend';
import { checkMatcher } from './matcherCheck';

/** Why an Add Hook edit cannot be made. */
export class AddHookError extends Error {
  constructor(
    readonly reason: 'invalidHandler' | 'invalidMatcher' | 'notJsonObject' | 'notAnArray',
    message: string,
  ) {
    super(message);
    this.name = 'AddHookError';
  }

  static is(error: unknown, reason?: AddHookError['reason']): error is AddHookError {
    return error instanceof AddHookError && (reason === undefined || error.reason === reason);
  }
}

/** Where the hooks object lives in the file. */
export interface AddHookTarget {
  /** `['hooks']` for `.claude/settings*.json` (default), `['hookwise.hooks']` for a VS Code settings.json, `['settings', 'hookwise.hooks']` for a .code-workspace. */
  readonly hooksPath?: readonly string[];
}

/** The new text and where the new handler is, so the command can reveal it. */
export interface AddHookEditResult {
  readonly text: string;
  /** The jsonc-parser edits (for a WorkspaceEdit instead of a whole-file write). */
  readonly edits: Edit[];
  /** Offset and length of the new handler object in `text`. */
  readonly offset: number;
  readonly length: number;
  /** Display JSON path of the new handler, e.g. `hooks.PreToolUse[1].hooks[0]`. */
  readonly jsonPath: string;
}

/** Indentation and line ending as the file already uses them (2 spaces, `\n` for a new file). */
export function detectFormatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indented?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: indented ? Math.min(indented.length, 8) : 2, eol };
}

/**
 * Adds `handler` under `event` with `matcher`, by minimal jsonc-parser edits: comments and
 * formatting elsewhere survive. An existing group with the same matcher gets the handler
 * appended; otherwise a new group is appended. Pure: the Add Hook command only does I/O.
 * Throws AddHookError when the handler or matcher is invalid or the file is not an object.
 */
export function computeAddHookEdit(
  fileText: string,
  event: HookEvent,
  matcher: string | undefined,
  handler: HookHandlerConfig,
  target: AddHookTarget = {},
): AddHookEditResult {
  const parsed = hookHandlerSchema.safeParse(handler);
  if (!parsed.success) throw new AddHookError('invalidHandler', `invalid hook: ${parsed.error.issues[0]?.message ?? 'bad handler'}`);
  if (matcher !== undefined && checkMatcher(matcher).error) throw new AddHookError('invalidMatcher', checkMatcher(matcher).error as string);
  const hooksPath: JsonSegment[] = [...(target.hooksPath ?? ['hooks'])];
  if (findExcessNesting(fileText) !== undefined)
    throw new AddHookError('notJsonObject', `the file is nested deeper than ${MAX_CONFIG_DEPTH} levels; fix it before adding hooks`);
  const root = fileText.trim() === '' ? undefined : parseTree(fileText, [], { allowTrailingComma: true });
  if (root && root.type !== 'object') throw new AddHookError('notJsonObject', 'the file is not a JSON object; fix it before adding hooks');
  const groupsNode = root ? findNodeAtLocation(root, [...hooksPath, event]) : undefined;
  if (groupsNode && groupsNode.type !== 'array')
    throw new AddHookError('notAnArray', `${formatJsonPath([...hooksPath, event])} is not an array; fix it before adding hooks`);
  const groups = groupsNode ? (getNodeValue(groupsNode) as unknown[]) : [];
  const normalized = matcher === '' ? undefined : matcher;
  const existing = groups.findIndex(
    (g) =>
      typeof g === 'object' &&
      g !== null &&
      Array.isArray((g as { hooks?: unknown }).hooks) &&
      ((g as { matcher?: unknown }).matcher ?? undefined) === normalized,
  );

  const formattingOptions = detectFormatting(fileText);
  const base = fileText.trim() === '' ? '' : fileText;
  const group = { ...(normalized !== undefined ? { matcher: normalized } : {}), hooks: [parsed.data] };
  let newPath: JsonSegment[];
  let edits: Edit[];
  if (existing >= 0 && groupsNode) {
    const count = (groups[existing] as { hooks: unknown[] }).hooks.length;
    newPath = [...hooksPath, event, existing, 'hooks', count];
    const handlersNode = findNodeAtLocation(groupsNode, [existing, 'hooks']);
    edits =
      (handlersNode && appendToContainer(base, handlersNode, undefined, parsed.data, formattingOptions)) ??
      modify(base, newPath, parsed.data, { formattingOptions, isArrayInsertion: true });
  } else if (groupsNode) {
    newPath = [...hooksPath, event, groups.length, 'hooks', 0];
    edits =
      appendToContainer(base, groupsNode, undefined, group, formattingOptions) ??
      modify(base, [...hooksPath, event, groups.length], group, { formattingOptions, isArrayInsertion: true });
  } else {
    newPath = [...hooksPath, event, 0, 'hooks', 0];
    const hooksNode = root ? findNodeAtLocation(root, hooksPath) : undefined;
    const appended = hooksNode?.type === 'object' ? appendToContainer(base, hooksNode, event, [group], formattingOptions) : undefined;
    edits = appended ?? modify(base, [...hooksPath, event], [group], { formattingOptions });
  }
  let text = applyEdits(base, edits);
  if (base === '' && !text.endsWith(formattingOptions.eol ?? '\n')) text += formattingOptions.eol ?? '\n';
  const node = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true }) as NonNullable<ReturnType<typeof parseTree>>, newPath);
  const displayPath =
    target.hooksPath && target.hooksPath.length > 0 && target.hooksPath[target.hooksPath.length - 1] !== 'hooks'
      ? formatJsonPath(newPath.slice(hooksPath.length), hooksPath[hooksPath.length - 1] as string)
      : formatJsonPath(newPath);
  return {
    text,
    edits: base === '' ? [{ offset: 0, length: fileText.length, content: text }] : edits,
    offset: node?.offset ?? 0,
    length: node?.length ?? 0,
    jsonPath: displayPath,
  };
}
