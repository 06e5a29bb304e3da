/**
 * The rules "Always Allow…" offers for a file write, as a person would write them: the folder
 * the file is in, by its top-level directory (`Edit(src/a/b.ts)` → `Edit(src/**)`), beside the
 * exact file. Pure.
 */

/** One rule on offer: `scope` says what it covers, for the picker's description. */
export interface FileRuleChoice {
  readonly rule: string;
  /** `folder`: every file under the folder; `file`: the exact file. */
  readonly covers: 'folder' | 'file';
  /** The folder (`src/`) or the file (`src/a/b.ts`), for display. */
  readonly target: string;
}

const FILE_RULE = /^(Edit|Read)\((.+)\)$/;

/**
 * The choices for `suggestedRule`, broadest first; undefined when it is not a file rule.
 * A file at the project's top has no folder to offer (`Edit(**)` would allow every file),
 * nor does one outside it at the file system's root. A path outside the project
 * (`//abs/dir/f`) offers its own folder (`//abs/dir/**`), never a top-level one like `//home/**`.
 */
export function fileRuleChoices(suggestedRule: string): FileRuleChoice[] | undefined {
  const match = FILE_RULE.exec(suggestedRule);
  if (!match) return undefined;
  const [, tool, spec] = match as unknown as [string, string, string];
  const exact: FileRuleChoice = { rule: suggestedRule, covers: 'file', target: spec };
  const folder = spec.startsWith('//') ? outsideFolder(spec) : insideFolder(spec);
  if (folder === undefined || /[*?[\]{}!]/.test(folder)) return [exact];
  return [{ rule: `${tool}(${folder}**)`, covers: 'folder', target: folder }, exact];
}

/** `src/a/b.ts` → `src/`; `b.ts` → undefined. */
function insideFolder(spec: string): string | undefined {
  const slash = spec.indexOf('/');
  return slash > 0 ? spec.slice(0, slash + 1) : undefined;
}

/** `//abs/dir/f` → `//abs/dir/`; `//f` → undefined. */
function outsideFolder(spec: string): string | undefined {
  const slash = spec.lastIndexOf('/');
  return slash > 1 ? spec.slice(0, slash + 1) : undefined;
}
