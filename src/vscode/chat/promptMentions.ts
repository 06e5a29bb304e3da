/**
 * The `#` mentions of a prompt: `#selection`, `#problems`, `#file:path` (a path with spaces in
 * quotes: `#file:"my notes.md"`, an optional line range `#file:src/a.ts:3-7`). Pure, so the
 * parsing is unit-tested; the mentions stay in the text the model reads, like Claude Code's
 * `@file` mentions, and their content is attached before the prompt.
 */
export type PromptMention =
  | { readonly kind: 'selection' }
  | { readonly kind: 'problems' }
  | { readonly kind: 'file'; readonly path: string; readonly startLine?: number; readonly endLine?: number };

/** Mentions parsed per prompt at most. */
const MAX_MENTIONS = 20;

const MENTION = /(^|\s)#(selection|problems|file:(?:"([^"]+)"|(\S+)))/g;

/** The mentions in `prompt`, in order, without duplicates. */
export function parseMentions(prompt: string): PromptMention[] {
  const out: PromptMention[] = [];
  const seen = new Set<string>();
  for (const m of prompt.matchAll(MENTION)) {
    if (out.length >= MAX_MENTIONS) break;
    const word = m[2] ?? '';
    let mention: PromptMention;
    if (word === 'selection' || word === 'problems') mention = { kind: word };
    else {
      // Sentence punctuation after a bare path is not part of it ("see #file:a.ts.").
      const raw = m[3] ?? (m[4] ?? '').replace(/[.,;!?)]+$/, '');
      const range = /^(.*?):(\d+)(?:-(\d+))?$/.exec(raw);
      if (range && range[1]) {
        const start = Number(range[2]);
        const end = range[3] !== undefined ? Number(range[3]) : start;
        mention = { kind: 'file', path: range[1], startLine: Math.min(start, end), endLine: Math.max(start, end) };
      } else mention = { kind: 'file', path: raw };
      if (!mention.path) continue;
    }
    const key = JSON.stringify(mention);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(mention);
  }
  return out;
}

/** The fixed `#` words offered by completion before any file search. */
export const MENTION_WORDS = [
  { label: '#file', detail: 'Attach a file: #file:path', insert: '#file:' },
  { label: '#selection', detail: "Attach the editor's selection", insert: '#selection ' },
  { label: '#problems', detail: 'Attach the Problems list', insert: '#problems ' },
] as const;
