/** One line of a rendered diff: kept (context), removed or added, with its line numbers. */
export interface DiffLine {
  readonly kind: 'context' | 'removed' | 'added' | 'gap';
  readonly text: string;
  /** 1-based line in the old text (context and removed lines). */
  readonly oldLine?: number;
  /** 1-based line in the new text (context and added lines). */
  readonly newLine?: number;
}

/** A line diff ready to render: hunks flattened into lines, `gap` lines between hunks. */
export interface LineDiff {
  readonly lines: readonly DiffLine[];
  readonly added: number;
  readonly removed: number;
  /** True when `lines` was cut at `maxLines` (Open Diff shows everything). */
  readonly truncated: boolean;
}

/** Context lines shown around each change. */
const CONTEXT = 3;
/** Above this many cells the middle part is shown as replaced wholesale instead of aligned line by line. */
const MAX_LCS_CELLS = 4_000_000;

/**
 * Line diff of `before` → `after` (LCS on what remains after the common head and tail are
 * trimmed), as hunks with three lines of context, cut after `maxLines` rendered lines so a
 * huge rewrite never floods the chat.
 */
export function diffLines(before: string, after: string, maxLines = 400): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [];
  for (let i = 0; i < head; i++) ops.push({ kind: 'context', a: i, b: i });
  middle(a, b, head, a.length - tail, head, b.length - tail, ops);
  for (let i = tail; i > 0; i--) ops.push({ kind: 'context', a: a.length - i, b: b.length - i });

  const added = ops.filter((o) => o.kind === 'added').length;
  const removed = ops.filter((o) => o.kind === 'removed').length;
  const lines: DiffLine[] = [];
  let truncated = false;
  let lastShown = -1;
  const show = (index: number): void => {
    const op = ops[index];
    if (!op) return;
    if (lastShown >= 0 && index > lastShown + 1) lines.push({ kind: 'gap', text: '…' });
    lastShown = index;
    if (op.kind === 'context') lines.push({ kind: 'context', text: a[op.a] ?? '', oldLine: op.a + 1, newLine: op.b + 1 });
    else if (op.kind === 'removed') lines.push({ kind: 'removed', text: a[op.a] ?? '', oldLine: op.a + 1 });
    else lines.push({ kind: 'added', text: b[op.b] ?? '', newLine: op.b + 1 });
  };
  for (let i = 0; i < ops.length; i++) {
    if (lines.length >= maxLines) {
      truncated = true;
      break;
    }
    if (ops[i]?.kind !== 'context') {
      show(i);
      continue;
    }
    // A context line is shown when a change lies within CONTEXT lines of it.
    let near = false;
    for (let d = -CONTEXT; d <= CONTEXT && !near; d++) near = d !== 0 && ops[i + d] !== undefined && ops[i + d]?.kind !== 'context';
    if (near) show(i);
  }
  return { lines, added, removed, truncated };
}

type Op =
  | { readonly kind: 'context'; readonly a: number; readonly b: number }
  | { readonly kind: 'removed'; readonly a: number }
  | { readonly kind: 'added'; readonly b: number };

/** Lines without their terminators; a final newline does not make an extra empty line. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** Aligns a[a0..a1) with b[b0..b1) by longest common subsequence, appending the ops. */
function middle(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number, ops: Op[]): void {
  const n = a1 - a0;
  const m = b1 - b0;
  if (n === 0 || m === 0 || n * m > MAX_LCS_CELLS) {
    for (let i = a0; i < a1; i++) ops.push({ kind: 'removed', a: i });
    for (let j = b0; j < b1; j++) ops.push({ kind: 'added', b: j });
    return;
  }
  // lcs[i][j] = LCS length of a[a0+i..a1) and b[b0+j..b1), row-major in one typed array.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[a0 + i] === b[b0 + j] ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[a0 + i] === b[b0 + j]) {
      ops.push({ kind: 'context', a: a0 + i, b: b0 + j });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      ops.push({ kind: 'removed', a: a0 + i });
      i++;
    } else {
      ops.push({ kind: 'added', b: b0 + j });
      j++;
    }
  }
  for (; i < n; i++) ops.push({ kind: 'removed', a: a0 + i });
  for (; j < m; j++) ops.push({ kind: 'added', b: b0 + j });
}
