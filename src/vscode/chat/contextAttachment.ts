import { numberLine } from '../../agent/tools/textFiles';

/**
 * What the user attached to a prompt ("Add Context…", `#file`, `#selection`, `#problems`, a
 * dropped file, the active editor's selection), and how it reaches the model. Pure (no vscode),
 * so the exact text the model sees is unit-tested. The texts follow what Claude Code sends for
 * an IDE selection and an `@file` mention: `<system-reminder>` blocks before the prompt, file
 * contents numbered like the Read tool, paths absolute with 1-based line ranges.
 */

/** One diagnostic of the Problems list. */
export interface ContextProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

/** An attachment as resolved when the prompt is sent (file contents are read then). */
export type ContextItem =
  | { readonly kind: 'file'; readonly path: string; readonly displayPath: string; readonly startLine?: number; readonly endLine?: number }
  | { readonly kind: 'folder'; readonly path: string; readonly displayPath: string }
  | {
      readonly kind: 'selection';
      readonly path: string;
      readonly displayPath: string;
      readonly startLine: number;
      readonly endLine: number;
      readonly text: string;
    }
  | { readonly kind: 'problems'; readonly problems: readonly ContextProblem[] }
  | { readonly kind: 'terminal'; readonly name: string; readonly command?: string; readonly output: string };

/** Lines of a file sent at most (the Read tool's default), and characters of a line. */
export const MAX_ATTACHED_LINES = 2000;
const MAX_LINE_CHARS = 2000;
/** Characters of a selection, folder listing or terminal output sent at most. */
export const MAX_ATTACHED_CHARS = 100_000;
/** Problems listed at most. */
export const MAX_PROBLEMS = 200;

/** The chip text: `chat.ts:3-7`, `src/`, `Problems (4)`, `Terminal bash`. */
export function attachmentLabel(item: ContextItem): string {
  switch (item.kind) {
    case 'file':
      return `${baseName(item.displayPath)}${rangeSuffix(item.startLine, item.endLine)}`;
    case 'folder':
      return `${baseName(item.displayPath)}/`;
    case 'selection':
      return `${baseName(item.displayPath)}${rangeSuffix(item.startLine, item.endLine)}`;
    case 'problems':
      return `Problems (${item.problems.length})`;
    case 'terminal':
      return `Terminal ${item.name}`;
  }
}

/** The tooltip / screen-reader detail of a chip: the full path and range. */
export function attachmentDetail(item: ContextItem): string {
  switch (item.kind) {
    case 'file':
      return `File ${item.displayPath}${item.startLine !== undefined ? `, lines ${item.startLine} to ${item.endLine ?? item.startLine}` : ''}`;
    case 'folder':
      return `Folder ${item.displayPath}`;
    case 'selection':
      return `Selection in ${item.displayPath}, lines ${item.startLine} to ${item.endLine}`;
    case 'problems':
      return `${item.problems.length} problem(s) from the Problems list`;
    case 'terminal':
      return `Last output of terminal ${item.name}${item.command ? ` (${item.command})` : ''}`;
  }
}

/** Reminder text for a selection: Claude Code's IDE-selection wording. */
export function formatSelection(path: string, startLine: number, endLine: number, text: string): string {
  return `The user selected the lines ${startLine} to ${endLine} from ${path}:\n${cut(text)}\n\nThis may or may not be related to the current task.`;
}

/**
 * Reminder texts for an attached file, as Claude Code sends an `@file` mention: the Read call
 * and its result (numbered lines). `content` is the whole file; the range picks lines from it.
 */
export function formatFile(path: string, content: string, startLine?: number, endLine?: number): string[] {
  const all = content.split(/\r?\n/);
  if (all.length > 0 && all[all.length - 1] === '') all.pop();
  const first = Math.max(1, startLine ?? 1);
  const last = Math.min(all.length, endLine ?? all.length, first + MAX_ATTACHED_LINES - 1);
  const lines: string[] = [];
  for (let n = first; n <= last; n++) {
    const line = all[n - 1] ?? '';
    lines.push(numberLine(n, line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (line truncated)` : line));
  }
  const input: Record<string, unknown> = { file_path: path };
  if (startLine !== undefined) {
    input['offset'] = first;
    input['limit'] = last - first + 1;
  }
  let result = all.length === 0 ? `(${path} exists but is empty.)` : lines.join('\n');
  if ((endLine ?? all.length) > last) result += `\n(${path} has ${all.length} lines; only lines ${first} to ${last} were attached.)`;
  return [`Called the Read tool with the following input: ${JSON.stringify(input)}`, `Result of calling the Read tool: ${JSON.stringify(result)}`];
}

/** Reminder texts for an attached folder: a listing, like the directory mention of Claude Code. */
export function formatFolder(path: string, entries: readonly string[]): string[] {
  const listing = cut(entries.join('\n'));
  return [
    `Called the Bash tool with the following input: ${JSON.stringify({ command: `ls ${path}`, description: `Lists files in ${path}` })}`,
    `Result of calling the Bash tool: ${JSON.stringify(listing)}`,
  ];
}

/** Reminder text for the Problems list, in the wording of Claude Code's IDE diagnostics. */
export function formatProblems(problems: readonly ContextProblem[]): string {
  if (problems.length === 0) return 'The user attached the Problems list of the editor: there are no problems.';
  const byFile = new Map<string, ContextProblem[]>();
  for (const p of problems.slice(0, MAX_PROBLEMS)) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  const parts: string[] = [];
  for (const [file, list] of byFile) {
    parts.push(`${file}:`);
    for (const p of list)
      parts.push(`  ${SEVERITY_MARK[p.severity]} [Line ${p.line}:${p.column}] ${p.message}${p.code ? ` [${p.code}]` : ''}${p.source ? ` (${p.source})` : ''}`);
  }
  const more = problems.length > MAX_PROBLEMS ? `\n(${problems.length - MAX_PROBLEMS} more not listed.)` : '';
  return `The user attached the Problems list of the editor:\n<diagnostics>\n${parts.join('\n')}${more}\n</diagnostics>`;
}

/** Reminder text for a terminal's last command output. */
export function formatTerminal(name: string, command: string | undefined, output: string): string {
  return `The user attached the last output of the terminal "${name}"${command ? ` (command: ${command})` : ''}:\n${cut(output)}`;
}

/** Wraps one reminder text the way the model gets it. */
export function systemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}

const SEVERITY_MARK: Record<ContextProblem['severity'], string> = { error: '✘', warning: '⚠', info: 'ℹ', hint: '★' };

function rangeSuffix(start: number | undefined, end: number | undefined): string {
  if (start === undefined) return '';
  return end !== undefined && end !== start ? `:${start}-${end}` : `:${start}`;
}

function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const at = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return at >= 0 ? trimmed.slice(at + 1) : trimmed;
}

function cut(text: string): string {
  return text.length <= MAX_ATTACHED_CHARS
    ? text
    : `${text.slice(0, MAX_ATTACHED_CHARS)}\n… (${text.length - MAX_ATTACHED_CHARS} more characters not attached)`;
}
