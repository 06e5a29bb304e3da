import { parse } from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';
import { computeAddHookEdit } from '../config/addHookEdit';
import { isPlainObject } from '../../shared/jsonObject';
import type { ConvertedHook } from './hookConversion';

/** What merging converted hooks into a `.claude/settings.json` text gives. */
export interface ConversionMerge {
  /** The new text (the old one when nothing is added). */
  readonly text: string;
  /** The hooks added, in order. */
  readonly added: readonly ConvertedHook[];
  /** The hooks already in the file: an identical handler under the same event and matcher. */
  readonly present: readonly ConvertedHook[];
}

/**
 * Adds each converted hook to a `.claude/settings.json` text (empty = a new file) with Add Hook's
 * minimal JSONC edits, so comments and formatting survive, and never twice: a hook whose identical
 * handler is already under the same event and matcher (from an earlier conversion, or twice in
 * the source file) is left out. Pure. Throws AddHookError when the file is not a JSON object.
 */
export function mergeConvertedHooks(text: string, hooks: readonly ConvertedHook[]): ConversionMerge {
  let current = text;
  const added: ConvertedHook[] = [];
  const present: ConvertedHook[] = [];
  for (const hook of hooks) {
    if (alreadyThere(current, hook)) {
      present.push(hook);
      continue;
    }
    current = computeAddHookEdit(current, hook.event, hook.matcher, hook.handler).text;
    added.push(hook);
  }
  return { text: current, added, present };
}

/** True when `text` has a handler equal to the hook's under its event and matcher. */
export function alreadyThere(text: string, hook: ConvertedHook): boolean {
  if (text.trim() === '') return false;
  const root: unknown = parse(text, [], { allowTrailingComma: true });
  const hooks = isPlainObject(root) ? root.hooks : undefined;
  const groups = isPlainObject(hooks) ? hooks[hook.event] : undefined;
  if (!Array.isArray(groups)) return false;
  return groups.some(
    (group) =>
      isPlainObject(group) &&
      (group.matcher === '' ? undefined : group.matcher) === hook.matcher &&
      Array.isArray(group.hooks) &&
      group.hooks.some((handler) => isDeepStrictEqual(handler, hook.handler)),
  );
}
