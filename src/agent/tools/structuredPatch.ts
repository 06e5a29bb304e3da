/** One hunk of a line diff, shaped like the `diff` package's `structuredPatch` hunks (what Claude Code reports). */
export interface PatchHunk {
  /** 1-based first line of the hunk in the old text. */
  readonly oldStart: number;
  readonly oldLines: number;
  /** 1-based first line of the hunk in the new text. */
  readonly newStart: number;
  readonly newLines: number;
  /** Each line prefixed with ' ' (kept), '-' (removed) or '+' (added). */
  readonly lines: readonly string[];
}

/** Lines of unchanged context around each change (Claude Code and `diff -u` use 3). */
export const PATCH_CONTEXT_LINES = 3;

/**
 * Above this many cells (changed old lines × changed new lines) the changed middle is
 * reported as one replacement instead of an exact line diff: a hook input must not cost
 * seconds of CPU for a rewritten generated file.
 */
const MAX_DIFF_CELLS = 4_000_000;

type Op = { readonly kind: ' ' | '-' | '+'; readonly text: string };

/**
 * The hunks that turn `oldText` into `newText`, line by line with {@link PATCH_CONTEXT_LINES}
 * of context; `[]` when they are equal. Lines are split on `\n`; a final newline ends the
 * last line rather than starting an empty one (as `diff` does).
 */
export function structuredPatch(oldText: string, newText: string): PatchHunk[] {
  if (oldText === newText) return [];
  return hunksOf(diffLines(splitLines(oldText), splitLines(newText)));
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** The edit script: common prefix and suffix kept, the middle by longest common subsequence. */
function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((text) => ({ kind: ' ', text }));
  ops.push(...middle(a.slice(start, endA), b.slice(start, endB)));
  for (const text of a.slice(endA)) ops.push({ kind: ' ', text });
  return ops;
}

function middle(a: readonly string[], b: readonly string[]): Op[] {
  const removed = a.map((text): Op => ({ kind: '-', text }));
  const added = b.map((text): Op => ({ kind: '+', text }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_DIFF_CELLS) return [...removed, ...added];
  // lcs[i][j] = length of the LCS of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      ops.push({ kind: '-', text: a[i++] as string });
    } else {
      ops.push({ kind: '+', text: b[j++] as string });
    }
  }
  while (i < a.length) ops.push({ kind: '-', text: a[i++] as string });
  while (j < b.length) ops.push({ kind: '+', text: b[j++] as string });
  return ops;
}

/** Groups the edit script into hunks: changes closer than twice the context share one. */
function hunksOf(ops: readonly Op[]): PatchHunk[] {
  const hunks: PatchHunk[] = [];
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  let k = 0;
  while (k < changed.length) {
    const first = changed[k] as number;
    let last = first;
    while (k + 1 < changed.length && (changed[k + 1] as number) - last <= 2 * PATCH_CONTEXT_LINES) last = changed[++k] as number;
    k++;
    const from = Math.max(0, first - PATCH_CONTEXT_LINES);
    const to = Math.min(ops.length, last + PATCH_CONTEXT_LINES + 1);
    // Line numbers where the hunk starts: count what comes before it on each side.
    let oldBefore = 0;
    let newBefore = 0;
    for (let i = 0; i < from; i++) {
      const kind = (ops[i] as Op).kind;
      if (kind !== '+') oldBefore++;
      if (kind !== '-') newBefore++;
    }
    const slice = ops.slice(from, to);
    hunks.push({
      oldStart: oldBefore + 1,
      oldLines: slice.filter((op) => op.kind !== '+').length,
      newStart: newBefore + 1,
      newLines: slice.filter((op) => op.kind !== '-').length,
      lines: slice.map((op) => op.kind + op.text),
    });
  }
  return hunks;
}
