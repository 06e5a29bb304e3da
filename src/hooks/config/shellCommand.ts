/**
 * Just enough shell lexing for permission rules: split a command line into its simple
 * commands at unquoted `&&`, `||`, `;`, `|`, `&` and newlines, and notice constructs that make
 * a prefix rule unsafe to trust (command substitution, output redirection).
 */

/** A command line split for rule matching. */
export interface SplitCommand {
  /** The simple commands, trimmed, in order. */
  readonly parts: readonly string[];
  /** `$(…)`, backticks or `>`-redirection outside single quotes: prefix rules must not auto-allow it. */
  readonly risky: boolean;
}

/** Splits `command` (quote-aware, no expansion). */
export function splitShellCommand(command: string): SplitCommand {
  const parts: string[] = [];
  let current = '';
  let quote: "'" | '"' | undefined;
  let risky = false;
  const flush = (): void => {
    const trimmed = current.trim();
    if (trimmed !== '') parts.push(trimmed);
    current = '';
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] as string;
    const next = command[i + 1];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      current += ch;
      continue;
    }
    if (ch === '\\' && next !== undefined) {
      current += ch + next;
      i++;
      continue;
    }
    if (ch === '`' || (ch === '$' && next === '(')) risky = true;
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      current += ch;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
      continue;
    }
    if (ch === '>') risky = true;
    if ((ch === '&' || ch === '|') && next === ch) {
      flush();
      i++;
      continue;
    }
    if (ch === ';' || ch === '|' || ch === '\n' || (ch === '&' && command[i - 1] !== '>' && next !== '>')) {
      flush();
      continue;
    }
    current += ch;
  }
  flush();
  return { parts, risky };
}
