/**
 * A fail-closed shell lexer for permission rules: finds every simple command a POSIX shell
 * (dash) or bash would run for a command line, including those nested in `$(…)`, backticks,
 * `<(…)`/`>(…)`, subshells, groups and unquoted here-documents, and says when it cannot be
 * sure. Hand-written because the shell parsers on npm are either async WASM (sh-syntax) or a
 * 1.5 MB GopherJS bundle (mvdan-sh); rule evaluation is sync and on the hot path.
 */

/** One simple command the shell would run. */
export interface SimpleCommand {
  /** Its words and redirections as written (quotes kept, line continuations removed), joined by one space: what rules match. */
  readonly text: string;
  /** Its words after quote removal (expansions left as written), assignments included, redirections excluded. */
  readonly words: readonly string[];
  /** Here-document bodies and here-strings it reads (a shell given one runs it: deny rules look inside). */
  readonly stdin: readonly string[];
}

/** A command line split for rule matching. */
export interface SplitCommand {
  /** `commands[i].text`, in order. */
  readonly parts: readonly string[];
  readonly commands: readonly SimpleCommand[];
  /** True when allow rules must not apply: a redirection writes a file, or the lexer is unsure. */
  readonly risky: boolean;
  /** Why the lexer cannot be sure it found every command (syntax it does not model, unbalanced quotes…). */
  readonly unsure?: string;
}

interface Word {
  raw: string;
  value: string;
  /** No expansion (`$`, backticks, process substitution) anywhere in the word. */
  literal: boolean;
  quoted: boolean;
  /** Unquoted `*`, `?`, `[…]`, or a `{…,…}` that bash may brace-expand. */
  pattern: boolean;
}

interface Collector {
  commands: SimpleCommand[];
  risky: boolean;
  unsure?: string;
}

interface PendingHeredoc {
  /** The reading command's `stdin`, filled when the body is read. */
  into: string[];
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
}

const MAX_DEPTH = 24;
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
/** Reserved words that only open or close a construct; the next word is the command. */
const STRUCTURAL = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until']);
/** Reserved words that start constructs the lexer does not model. */
const UNMODELLED = new Set(['for', 'case', 'select', 'function', 'coproc', '[[', 'esac', 'in']);
const REDIRECT_OPS = ['<<<', '<<-', '<<', '<>', '<&', '<', '>>', '>|', '>&', '>'];
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** Characters with no meaning to the lexer (sticky; see scanWord). */
const PLAIN = /[^ \t\n;&|<>()\\'"$`*?{[]+/y;

class Lexer {
  pos = 0;
  private pending: PendingHeredoc[] = [];
  /** Open `(`, `$(`, `<(` in this text; with `depth` (backticks, here-documents) bounds recursion. */
  private nesting = 0;

  constructor(
    private readonly src: string,
    private readonly out: Collector,
    private readonly depth: number,
  ) {}

  private unsure(reason: string): void {
    this.out.unsure ??= reason;
    this.out.risky = true;
  }

  /** Parses commands until `)` (when `closer`) or the end. */
  parseList(closer: boolean): void {
    if (this.depth + this.nesting > MAX_DEPTH) {
      this.unsure('nesting too deep');
      this.pos = this.src.length;
      return;
    }
    this.nesting++;
    try {
      this.parseCommands(closer);
    } finally {
      this.nesting--;
    }
  }

  private parseCommands(closer: boolean): void {
    const src = this.src;
    while (this.pos < src.length) {
      this.skipBlanks();
      const ch = src[this.pos];
      if (ch === undefined) break;
      const next = src[this.pos + 1];
      if (ch === ')') {
        this.pos++;
        if (closer) {
          if (this.pending.length > 0) this.unsure('here-document opened inside a substitution');
          return;
        }
        this.unsure('unbalanced )');
      } else if (ch === '\n') {
        this.pos++;
        this.readHeredocs();
      } else if (ch === ';') {
        this.pos++;
        if (next === ';' || next === '&') this.unsure('case clause outside a modelled case');
      } else if (ch === '&') {
        // `&>x` is a redirection in bash and "background, then `>x`" in dash: split as dash
        // does (what follows is a command of its own); the `>` is still checked as a redirection.
        this.pos += next === '&' ? 2 : 1;
      } else if (ch === '|') {
        this.pos += next === '|' || next === '&' ? 2 : 1;
      } else {
        this.parseSimpleCommand();
      }
    }
    if (closer) this.unsure('unclosed (');
    if (this.pending.length > 0) this.unsure('unterminated here-document');
  }

  private skipBlanks(): void {
    const src = this.src;
    for (;;) {
      const ch = src[this.pos];
      if (ch === ' ' || ch === '\t') this.pos++;
      else if (ch === '\\' && src[this.pos + 1] === '\n') this.skipContinuation();
      else return;
    }
  }

  /**
   * Skips the backslash-newline at `pos`. The shells remove it before anything else, so one
   * that splits a token (`$\<nl>(`, `&\<nl>&`, `<\<nl>(`) joins it: rather than model that, be unsure.
   */
  private skipContinuation(): void {
    const src = this.src;
    const before = src[this.pos - 1] ?? '';
    this.pos += 2;
    if (before === '$') this.unsure('a line continuation inside an operator');
    if (!/[<>&|;(]/.test(before)) return;
    let after = this.pos;
    while (src.startsWith('\\\n', after)) after += 2;
    if (/[(<>&|;{-]/.test(src[after] ?? '')) this.unsure('a line continuation inside an operator');
  }

  private skipComment(): void {
    const end = this.src.indexOf('\n', this.pos);
    this.pos = end < 0 ? this.src.length : end;
  }

  private parseSimpleCommand(): void {
    const src = this.src;
    let words: Word[] = [];
    let texts: string[] = [];
    let stdin: string[] = [];
    const flush = (): void => {
      this.finishCommand(words, texts, stdin);
      words = [];
      texts = [];
      stdin = [];
    };
    for (;;) {
      this.skipBlanks();
      const ch = src[this.pos];
      if (ch === undefined || ch === '\n' || ch === ';' || ch === '&' || ch === '|' || ch === ')') break;
      if (ch === '#') {
        this.skipComment();
        break;
      }
      if (ch === '(') {
        if (words.length > 0) this.unsure('( after a word (function definition, array or syntax error)');
        if (src[this.pos + 1] === '(') this.unsure('arithmetic command');
        // What follows `f()` or `(…)` starts a new command as far as rules are concerned (`f() { rm; }`).
        flush();
        this.pos++;
        this.parseList(true);
        continue;
      }
      if ((ch === '<' || ch === '>') && src[this.pos + 1] !== '(') {
        texts.push(this.parseRedirect('', stdin));
        continue;
      }
      const word = this.scanWord();
      const after = src[this.pos];
      if ((after === '<' || after === '>') && src[this.pos + 1] !== '(' && /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/.test(word.raw)) {
        texts.push(this.parseRedirect(word.raw, stdin));
        continue;
      }
      if (words.length === 0 && !word.quoted && STRUCTURAL.has(word.raw)) continue;
      if (words.length === 0 && !word.quoted && UNMODELLED.has(word.raw)) this.unsure(`${word.raw} is not modelled`);
      words.push(word);
      texts.push(word.raw);
    }
    flush();
  }

  private finishCommand(words: readonly Word[], texts: readonly string[], stdin: string[]): void {
    const head = words.find((w) => !ASSIGNMENT.test(w.raw));
    if (head) {
      if (!head.literal) this.unsure('the command name is computed');
      else if (head.pattern) this.unsure('the command name is a pattern');
      else if (head.value === 'eval') this.unsure('eval');
    }
    if (texts.length > 0 && words.length > 0) this.out.commands.push({ text: texts.join(' '), words: words.map((w) => w.value), stdin });
  }

  /** Parses one redirection (the operator is at `pos`); returns its text. */
  private parseRedirect(fd: string, stdin: string[]): string {
    const op = REDIRECT_OPS.find((o) => this.src.startsWith(o, this.pos)) as string;
    this.pos += op.length;
    this.skipBlanks();
    const ch = this.src[this.pos];
    if (ch === undefined || ch === '#' || (WORD_END.has(ch) && !((ch === '<' || ch === '>') && this.src[this.pos + 1] === '('))) {
      this.unsure(`${op} without a target`);
      return fd + op;
    }
    const target = this.scanWord();
    if (op === '<<' || op === '<<-') {
      if (target.value.includes('$') || target.value.includes('`') || target.value === '') this.unsure('unusual here-document delimiter');
      this.pending.push({ into: stdin, delimiter: target.value, stripTabs: op === '<<-', quoted: target.quoted });
    } else if (op === '<<<') {
      stdin.push(target.value);
    } else if (op === '>' || op === '>>' || op === '>|' || op === '<>') {
      if (!target.literal || !HARMLESS_TARGETS.has(target.value)) this.out.risky = true;
    } else if (op === '>&') {
      if (!target.literal || !/^(\d+|-)$/.test(target.value)) this.out.risky = true;
    }
    return fd + op + target.raw;
  }

  /** After a newline: reads the bodies of the here-documents opened on the line. */
  private readHeredocs(): void {
    const src = this.src;
    for (const doc of this.pending) {
      const start = this.pos;
      let body: string | undefined;
      while (this.pos < src.length) {
        const nl = src.indexOf('\n', this.pos);
        const end = nl < 0 ? src.length : nl;
        const line = src.slice(this.pos, end);
        const lineStart = this.pos;
        this.pos = nl < 0 ? src.length : nl + 1;
        if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) {
          body = src.slice(start, lineStart);
          break;
        }
        // The shells join such a line with the next before looking for the delimiter.
        if (!doc.quoted && /(^|[^\\])(\\\\)*\\$/.test(line)) this.unsure('here-document line ends with a backslash');
      }
      if (body === undefined) {
        this.unsure('unterminated here-document');
        body = src.slice(start);
      }
      doc.into.push(body);
      if (!doc.quoted) new Lexer(body, this.out, this.depth + this.nesting + 1).scanExpanding(false);
    }
    this.pending = [];
  }

  /** Scans one word at `pos` (not at a word end), collecting the commands nested in it. */
  private scanWord(): Word {
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
    new Lexer(body, this.out, this.depth + this.nesting + 1).parseList(false);
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

/**
 * Splits `command` into the simple commands a shell (dash or bash) would run, nested ones
 * included. Never throws; anything it does not model sets `unsure` (and `risky`).
 */
export function splitShellCommand(command: string): SplitCommand {
  const out: Collector = { commands: [], risky: false };
  new Lexer(command, out, 0).parseList(false);
  return { parts: out.commands.map((c) => c.text), commands: out.commands, risky: out.risky, ...(out.unsure !== undefined ? { unsure: out.unsure } : {}) };
}
