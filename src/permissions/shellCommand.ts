/**
 * A fail-closed shell lexer for permission rules: finds every simple command a POSIX shell
 * (dash) or bash would run for a command line, including those nested in `$(…)`, backticks,
 * `<(…)`/`>(…)`, subshells, groups and unquoted here-documents, and says when it cannot be
 * sure. Hand-written because the shell parsers on npm are either async WASM (sh-syntax) or a
 * 1.5 MB GopherJS bundle (mvdan-sh); rule evaluation is sync and on the hot path.
 */
import { CommandSplitter } from './shell/commandSplitter';
import type { Collector } from './shell/shellCursor';

/** One simple command the shell would run. */
export interface SimpleCommand {
  /** Its words and redirections as written (quotes kept, line continuations removed), joined by one space: what rules match. */
  readonly text: string;
  /** Its words after quote removal (expansions left as written), assignments included, redirections excluded. */
  readonly words: readonly string[];
  /** Here-document bodies and here-strings it reads (a shell given one runs it: deny rules look inside). */
  readonly stdin: readonly string[];
  /** Its words as written (quotes kept), parallel to `words`: for callers that expand them as bash would. */
  readonly rawWords?: readonly string[];
  /** Targets of its output redirections (`>`, `>>`, `>|`, `<>`, `>&file`) as written. */
  readonly writes?: readonly string[];
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

/**
 * Splits `command` into the simple commands a shell (dash or bash) would run, nested ones
 * included. Never throws; anything it does not model sets `unsure` (and `risky`).
 */
export function splitShellCommand(command: string): SplitCommand {
  const out: Collector = { commands: [], risky: false };
  new CommandSplitter(command, out, 0).parseList(false);
  return { parts: out.commands.map((c) => c.text), commands: out.commands, risky: out.risky, ...(out.unsure !== undefined ? { unsure: out.unsure } : {}) };
}
