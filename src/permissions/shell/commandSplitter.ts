/**
 * The command splitter of the shell lexer: command lists, simple commands, redirections and
 * the operators between them; the words come from WordScanner, here-document bodies from
 * heredocs.ts.
 */
import { readHeredocs } from './heredocs';
import { WORD_END, type Word } from './shellCursor';
import { WordScanner } from './wordScanner';

const MAX_DEPTH = 24;
/** Reserved words that only open or close a construct; the next word is the command. */
const STRUCTURAL = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until']);
/** Reserved words that start constructs the lexer does not model. */
const UNMODELLED = new Set(['for', 'case', 'select', 'function', 'coproc', '[[', 'esac', 'in']);
const REDIRECT_OPS = ['<<<', '<<-', '<<', '<>', '<&', '<', '>>', '>|', '>&', '>'];
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** Finds every simple command in a command list (see shellCommand.ts). */
export class CommandSplitter extends WordScanner {
  nested(src: string): WordScanner {
    return new CommandSplitter(src, this.out, this.depth + this.nesting + 1);
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
        readHeredocs(this);
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

  private skipComment(): void {
    const end = this.src.indexOf('\n', this.pos);
    this.pos = end < 0 ? this.src.length : end;
  }

  private parseSimpleCommand(): void {
    const src = this.src;
    let words: Word[] = [];
    let texts: string[] = [];
    let stdin: string[] = [];
    let writes: string[] = [];
    const flush = (): void => {
      this.finishCommand(words, texts, stdin, writes);
      words = [];
      texts = [];
      stdin = [];
      writes = [];
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
        texts.push(this.parseRedirect('', stdin, writes));
        continue;
      }
      const word = this.scanWord();
      const after = src[this.pos];
      if ((after === '<' || after === '>') && src[this.pos + 1] !== '(' && /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/.test(word.raw)) {
        texts.push(this.parseRedirect(word.raw, stdin, writes));
        continue;
      }
      if (words.length === 0 && !word.quoted && STRUCTURAL.has(word.raw)) continue;
      if (words.length === 0 && !word.quoted && UNMODELLED.has(word.raw)) this.unsure(`${word.raw} is not modelled`);
      words.push(word);
      texts.push(word.raw);
    }
    flush();
  }

  private finishCommand(words: readonly Word[], texts: readonly string[], stdin: string[], writes: string[]): void {
    const head = words.find((w) => !ASSIGNMENT.test(w.raw));
    if (head) {
      if (!head.literal) this.unsure('the command name is computed');
      else if (head.pattern) this.unsure('the command name is a pattern');
      else if (head.value === 'eval') this.unsure('eval');
    }
    if (texts.length > 0 && words.length > 0)
      this.out.commands.push({ text: texts.join(' '), words: words.map((w) => w.value), stdin, rawWords: words.map((w) => w.raw), writes });
  }

  /** Parses one redirection (the operator is at `pos`); returns its text. */
  private parseRedirect(fd: string, stdin: string[], writes: string[]): string {
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
      writes.push(target.raw);
      if (!target.literal || !HARMLESS_TARGETS.has(target.value)) this.out.risky = true;
    } else if (op === '>&') {
      if (!/^(\d+|-)$/.test(target.value)) writes.push(target.raw);
      if (!target.literal || !/^(\d+|-)$/.test(target.value)) this.out.risky = true;
    }
    return fd + op + target.raw;
  }
}
