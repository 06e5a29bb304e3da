/**
 * The state the shell lexer (shellCommand.ts) shares across its parts: the text, the
 * position, the commands found so far, the here-documents waiting for their bodies, and the
 * blanks and line continuations every part skips the same way.
 */
import type { SimpleCommand } from '../shellCommand';

/** One shell word as scanned. */
export interface Word {
  raw: string;
  value: string;
  /** No expansion (`$`, backticks, process substitution) anywhere in the word. */
  literal: boolean;
  quoted: boolean;
  /** Unquoted `*`, `?`, `[…]`, or a `{…,…}` that bash may brace-expand. */
  pattern: boolean;
}

/** Where the commands found (nested ones included) and the doubts go. */
export interface Collector {
  commands: SimpleCommand[];
  risky: boolean;
  unsure?: string;
}

/** A here-document whose body starts after the current line. */
export interface PendingHeredoc {
  /** The reading command's `stdin`, filled when the body is read. */
  into: string[];
  delimiter: string;
  stripTabs: boolean;
  quoted: boolean;
}

/** Characters that end an unquoted word. */
export const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);

/**
 * The base of the lexer: position, doubts and blanks. The parts call each other through
 * `this` (a word may hold a command list, a list holds words), so they are layers of one
 * class: ShellCursor, WordScanner (words), CommandSplitter (command lists).
 */
export abstract class ShellCursor {
  pos = 0;
  /** Here-documents opened on the current line (heredocs.ts reads their bodies). */
  pending: PendingHeredoc[] = [];
  /** Open `(`, `$(`, `<(` in this text; with `depth` (backticks, here-documents) bounds recursion. */
  protected nesting = 0;

  constructor(
    readonly src: string,
    protected readonly out: Collector,
    protected readonly depth: number,
  ) {}

  unsure(reason: string): void {
    this.out.unsure ??= reason;
    this.out.risky = true;
  }

  /** Parses commands until `)` (when `closer`) or the end. */
  abstract parseList(closer: boolean): void;

  protected skipBlanks(): void {
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
  protected skipContinuation(): void {
    const src = this.src;
    const before = src[this.pos - 1] ?? '';
    this.pos += 2;
    if (before === '$') this.unsure('a line continuation inside an operator');
    if (!/[<>&|;(]/.test(before)) return;
    let after = this.pos;
    while (src.startsWith('\\\n', after)) after += 2;
    if (/[(<>&|;{-]/.test(src[after] ?? '')) this.unsure('a line continuation inside an operator');
  }
}
