import path from 'node:path';

/** Where a command's paths resolve: hooks run in the project dir, with these variables set. */
export interface ScriptLinkContext {
  readonly projectDir: string;
  readonly homeDir: string;
  /** `${CLAUDE_PLUGIN_ROOT}` of a plugin's hooks; undefined elsewhere (the word is then not linked). */
  readonly pluginRoot?: string;
}

/** A word of the command that names a file. */
export interface ScriptLink {
  /** Offset and length in the raw JSON string literal (quotes included in the literal, not in the word). */
  readonly offset: number;
  readonly length: number;
  /** Absolute path the word names (not checked for existence: the caller does that). */
  readonly file: string;
}

/** Words looked at per command; a command is one line of shell, not a script. */
const MAX_WORDS = 64;
const SCRIPT_EXTENSIONS = /\.(sh|bash|zsh|fish|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|ps1|lua|jar)$/i;
const VARIABLES: readonly [RegExp, keyof ScriptLinkContext][] = [
  [/\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR(?![A-Za-z0-9_])/g, 'projectDir'],
  [/\$\{CLAUDE_PLUGIN_ROOT\}|\$CLAUDE_PLUGIN_ROOT(?![A-Za-z0-9_])/g, 'pluginRoot'],
];

/**
 * The files a hook command names, for document links: words with a `/` or a script extension,
 * with `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PLUGIN_ROOT}` and a leading `~` expanded and relative
 * paths resolved against the project dir (where command hooks run). Works on the JSON string
 * literal as written (`literal` includes its quotes), so offsets map straight to the document.
 * Words with other variables, globs or URLs are skipped: they cannot be resolved statically.
 */
export function scriptLinks(literal: string, context: ScriptLinkContext): ScriptLink[] {
  const links: ScriptLink[] = [];
  // Words of the literal: runs of anything but whitespace and shell operators (escaped quotes stay inside).
  const word = /[^\s;|&()<>]+/g;
  let count = 0;
  for (let m = word.exec(literal); m && count < MAX_WORDS; m = word.exec(literal), count++) {
    let start = m.index;
    let raw = m[0];
    // `--config=path` and `VAR=path` name the path after the `=`.
    const eq = raw.indexOf('=');
    if (eq >= 0) {
      start += eq + 1;
      raw = raw.slice(eq + 1);
    }
    // Strip the literal's own quotes and the shell's quotes (escaped in JSON as \").
    const lead = /^(?:\\"|"|')+/.exec(raw)?.[0].length ?? 0;
    const trail = /(?:\\"|"|')+$/.exec(raw.slice(lead))?.[0].length ?? 0;
    const inner = raw.slice(lead, raw.length - trail);
    const file = resolveWord(inner.replace(/\\"|"|'/g, '').replace(/\\\\/g, '\\'), context);
    if (file !== undefined) links.push({ offset: start + lead, length: inner.length, file });
  }
  return links;
}

function resolveWord(word: string, context: ScriptLinkContext): string | undefined {
  if (word === '' || word.startsWith('-') || word.includes('://')) return undefined;
  let expanded = word;
  for (const [pattern, key] of VARIABLES) {
    if (expanded.search(pattern) < 0) continue;
    const value = context[key];
    if (value === undefined) return undefined;
    expanded = expanded.replace(pattern, () => value);
  }
  if (expanded === '~' || expanded.startsWith('~/')) expanded = path.join(context.homeDir, expanded.slice(1));
  if (/[$*?[\]{}`~]/.test(expanded)) return undefined;
  if (!expanded.includes('/') && !SCRIPT_EXTENSIONS.test(expanded)) return undefined;
  return path.resolve(context.projectDir, expanded);
}
