/**
 * The word scanner of the shell lexer: quotes, escapes, `$…` expansions, backticks,
 * `${…}` and double-quoted text, collecting the commands nested in a word (`$(…)`, `<(…)`,
 * backticks) through the command splitter.
 */
import { ShellCursor, WORD_END, type Word } from './shellCursor';

/** Characters with no meaning to the lexer (sticky; see scanWord). */
const PLAIN = /[^ \t\n;&|<>()\\'"$`*?{[]+/y;

/** Scans words; the subclass parses the command lists nested in them. */
export abstract class WordScanner extends ShellCursor {
  /** A lexer for text nested one level deeper (a backtick body, a here-document body). */
  abstract nested(src: string): WordScanner;

  /** Scans one word at `pos` (not at a word end), collecting the commands nested in it. */
  protected scanWord(): Word {
    const src = this.src;
    const word: Word = { raw: '', value: '', literal: true, quoted: false, pattern: false };
    // `[` alone is the test command; `[…]` is a pattern and `{a,b}` a bash brace expansion.
    let brackets = false;
    const start = this.pos;
    while (this.pos < src.length) {
      const ch = src[this.pos] as string;
      const next = src[this.pos + 1];
      if ((ch === '<' || ch === '>') && next === '(' && this.pos === start) {
        this.pos += 2;
        const from = this.pos - 2;
        this.parseList(true);
        word.raw += stripContinuations(src.slice(from, this.pos));
        word.value += src.slice(from, this.pos);
        word.literal = false;
        continue;
      }
      if (WORD_END.has(ch)) break;
      if (ch === '\\') {
        if (next === '\n') {
          this.skipContinuation();
          continue;
        }
        word.raw += next === undefined ? ch : ch + next;
        word.value += next ?? ch;
        word.quoted = true;
        this.pos += next === undefined ? 1 : 2;
      } else if (ch === "'") {
        const end = src.indexOf("'", this.pos + 1);
        if (end < 0) this.unsure('unclosed quote');
        const stop = end < 0 ? src.length : end + 1;
        word.raw += src.slice(this.pos, stop);
        word.value += src.slice(this.pos + 1, end < 0 ? src.length : end);
        word.quoted = true;
        this.pos = stop;
      } else if (ch === '"') {
        this.pos++;
        const inner = this.scanExpanding(true);
        word.raw += `"${inner.raw}"`;
        word.value += inner.value;
        word.literal &&= inner.literal;
        word.quoted = true;
      } else if (ch === '$' || ch === '`') {
        if (ch === '$' && next === "'") {
          const before = this.pos;
          this.scanAnsiQuote();
          word.raw += src.slice(before, this.pos);
          word.value += src.slice(before + 2, this.pos - 1);
          word.quoted = true;
          continue;
        }
        if (ch === '$' && next === '"') {
          this.pos++;
          continue;
        }
        const part = this.scanDollar();
        word.raw += part.raw;
        word.value += part.raw;
        word.literal &&= !part.expands;
      } else {
        if (ch === '*' || ch === '?') word.pattern = true;
        if (ch === '{' || ch === '[') brackets = true;
        // A run of ordinary characters at once: long arguments stay cheap.
        PLAIN.lastIndex = this.pos + 1;
        const run = ch + (PLAIN.exec(src)?.[0] ?? '');
        word.raw += run;
        word.value += run;
        this.pos += run.length;
      }
    }
    if (brackets && /[\],]|\.\./.test(word.raw)) word.pattern = true;
    return word;
  }

  /** `$'…'` (bash: backslash escapes; dash: `$` then a plain quote); unsure when the two differ. */
  private scanAnsiQuote(): void {
    const src = this.src;
    let i = this.pos + 2;
    while (i < src.length && src[i] !== "'") i += src[i] === '\\' ? 2 : 1;
    if (i >= src.length) this.unsure('unclosed quote');
    if (src.slice(this.pos + 2, i).includes('\\')) this.unsure("$'…' with backslashes (bash and dash differ)");
    this.pos = Math.min(i + 1, src.length);
  }

  /**
   * Scans `$…` or a backtick substitution at `pos`; nested commands are collected. Returns
   * the text and whether it expands (a lone `$` does not).
   */
  private scanDollar(): { raw: string; expands: boolean } {
    const src = this.src;
    const start = this.pos;
    const ch = src[this.pos];
    const next = src[this.pos + 1] ?? '';
    if (ch === '`') {
      this.scanBackticks();
    } else if (next === '(') {
      if (src[this.pos + 2] === '(') this.unsure('arithmetic expansion');
      this.pos += 2;
      this.parseList(true);
    } else if (next === '{') {
      this.scanBraceParameter();
    } else if (/[A-Za-z_]/.test(next)) {
      this.pos += 2;
      while (this.pos < src.length && /[A-Za-z0-9_]/.test(src[this.pos] as string)) this.pos++;
    } else if (/[0-9@*#?$!-]/.test(next)) {
      this.pos += 2;
    } else {
      this.pos++;
      return { raw: '$', expands: false };
    }
    return { raw: stripContinuations(src.slice(start, this.pos)), expands: true };
  }

  private scanBackticks(): void {
    const src = this.src;
    let body = '';
    let i = this.pos + 1;
    for (; i < src.length && src[i] !== '`'; i++) {
      const c = src[i] as string;
      const n = src[i + 1];
      if (c === '\\' && (n === '$' || n === '`' || n === '\\' || n === '\n')) {
        if (n !== '\n') body += n;
        i++;
      } else {
        body += c;
      }
    }
    if (i >= src.length) this.unsure('unclosed `');
    this.pos = Math.min(i + 1, src.length);
    this.nested(body).parseList(false);
  }

  private scanBraceParameter(): void {
    const src = this.src;
    this.pos += 2;
    let open = 1;
    while (this.pos < src.length && open > 0) {
      const ch = src[this.pos] as string;
      if (ch === '\\') {
        if (src[this.pos + 1] === '\n') this.skipContinuation();
        else this.pos += 2;
      } else if ((ch === '<' || ch === '>') && src[this.pos + 1] === '(') {
        // bash runs process substitution in the word of `${x:-…}`.
        this.pos += 2;
        this.parseList(true);
      } else if (ch === '$' || ch === '`') {
        if (src[this.pos + 1] === '{') open++;
        if (src[this.pos + 1] === '{') this.pos += 2;
        else this.scanDollar();
      } else {
        if (ch === "'" || ch === '"') this.unsure('quotes inside ${…}');
        if (ch === '}') open--;
        this.pos++;
      }
    }
    if (open > 0) this.unsure('unclosed ${');
  }

  /**
   * Scans double-quoted text (after the opening `"`, through the closing one when `quoted`)
   * or a whole unquoted here-document body (`quoted` false): only `$` and backticks expand.
   */
  scanExpanding(quoted: boolean): { raw: string; value: string; literal: boolean } {
    const src = this.src;
    let raw = '';
    let value = '';
    let literal = true;
    while (this.pos < src.length) {
      const ch = src[this.pos] as string;
      const next = src[this.pos + 1];
      if (quoted && ch === '"') {
        this.pos++;
        return { raw, value, literal };
      }
      if (ch === '\\') {
        if (next === '\n') {
          this.skipContinuation();
          continue;
        }
        const escapes = next === '$' || next === '`' || next === '\\' || (quoted && next === '"');
        raw += ch + (next ?? '');
        value += escapes ? next : ch + (next ?? '');
        this.pos += next === undefined ? 1 : 2;
      } else if (ch === '$' || ch === '`') {
        const part = this.scanDollar();
        raw += part.raw;
        value += part.raw;
        literal &&= !part.expands;
      } else {
        raw += ch;
        value += ch;
        this.pos++;
      }
    }
    if (quoted) this.unsure('unclosed "');
    return { raw, value, literal };
  }
}

function stripContinuations(text: string): string {
  return text.includes('\\\n') ? text.replace(/\\\n/g, '') : text;
}
