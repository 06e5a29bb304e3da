import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One relative link or image in a markdown file that does not resolve. */
export interface BrokenLink {
  /** The markdown file holding the link, as given. */
  file: string;
  /** 1-based line of the link. */
  line: number;
  /** The link target as written, e.g. `docs/hooks.md#3-output`. */
  target: string;
  /** Why it does not resolve. */
  problem: string;
}

/**
 * The anchor GitHub gives a heading: lowercase, markdown links reduced to their text,
 * punctuation and symbols dropped (letters, digits, `_`, `-` and spaces stay), spaces → `-`.
 */
export function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Fenced code blocks blanked line for line (so line numbers stay), and inline code spans blanked. */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      return '';
    }
    if (opener !== undefined) {
      fence = opener;
      return '';
    }
    return line.replace(/(`+)[^`]*?\1/g, '');
  });
}

/** Every anchor the file's headings get, duplicates numbered `-1`, `-2`… as GitHub does. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  // Inline code is part of a heading's text: read headings from lines with only fences blanked.
  const lines = text.split('\n');
  proseLines(text).forEach((blanked, i) => {
    const raw = lines[i] ?? '';
    if (blanked === '' && raw.trim() !== '') return; // inside a fenced block
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (!m) return;
    const base = githubSlug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  });
  return anchors;
}

/** Link and image targets on one line of prose: `[..](t)`, `![..](t)`, `<img src="t">`. */
function targetsOf(line: string): string[] {
  const targets: string[] = [];
  for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) {
    targets.push((m[1] ?? '').replace(/^<|>$/g, ''));
  }
  for (const m of line.matchAll(/<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) targets.push(m[1] ?? m[2] ?? '');
  return targets;
}

/**
 * The relative links and images of `file` that name no existing file, or an `#anchor` that no
 * heading of the target file has. External links (any `scheme:`) are not checked.
 */
export function brokenLinks(file: string): BrokenLink[] {
  const text = readFileSync(file, 'utf8');
  const broken: BrokenLink[] = [];
  proseLines(text).forEach((line, i) => {
    for (const target of targetsOf(line)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf('#');
      const rel = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = rel === '' ? file : path.resolve(path.dirname(file), rel);
      const report = (problem: string): void => void broken.push({ file, line: i + 1, target, problem });
      if (!existsSync(resolved) || !statSync(resolved).isFile()) {
        report(`no file ${path.relative(process.cwd(), resolved)}`);
        continue;
      }
      if (anchor !== undefined && !headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) {
        report(`no heading with anchor #${anchor} in ${path.relative(process.cwd(), resolved)}`);
      }
    }
  });
  return broken;
}
