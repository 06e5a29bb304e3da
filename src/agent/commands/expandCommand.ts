import path from 'node:path';
import type { SlashCommand } from './slashCommands';

/**
 * Turns a slash command and its arguments into the prompt the model gets, as Claude Code does:
 * `$ARGUMENTS` is the raw argument text and `$1`…`$9` the shell-split words (without any
 * placeholder, non-empty arguments are appended as `ARGUMENTS: …`); each !`command` runs first
 * (through the caller's port, which applies the Bash tool's permissions and hooks) and is
 * replaced by its output; each `@path` adds that file's contents after the prompt.
 */

/** What expansion needs from the session. */
export interface ExpansionPorts {
  readonly cwd: string;
  /** Runs one pre-execution command; a denial or failure is an error naming why. */
  runShell(command: string): Promise<{ readonly ok: true; readonly output: string } | { readonly ok: false; readonly error: string }>;
  /** Reads one referenced file (bounded, permission-checked); undefined when it cannot be read, with why. */
  readFile(absPath: string): Promise<{ readonly ok: true; readonly text: string } | { readonly ok: false; readonly error: string }>;
}

/** The expanded prompt, or why the command could not be expanded (shown to the user; nothing is sent). */
export type Expansion = { readonly ok: true; readonly prompt: string } | { readonly ok: false; readonly error: string };

const MAX_PRE_COMMANDS = 16;
const MAX_FILE_REFS = 16;

/** Expands `command` with `args`. Never throws. */
export async function expandCommand(command: SlashCommand, args: string, ports: ExpansionPorts): Promise<Expansion> {
  const words = splitArgs(args);
  const usesArgs = /\$(ARGUMENTS|[1-9])/.test(command.body);
  let text = command.body.replace(/\$ARGUMENTS/g, args).replace(/\$([1-9])/g, (_m, n: string) => words[Number(n) - 1] ?? '');
  if (!usesArgs && args !== '') text = `${text.trimEnd()}\n\nARGUMENTS: ${args}`;

  const pre = [...text.matchAll(/!`([^`\n]+)`/g)];
  if (pre.length > MAX_PRE_COMMANDS) return { ok: false, error: `/${command.name} runs ${pre.length} commands before it is sent; at most ${MAX_PRE_COMMANDS}` };
  for (const m of pre) {
    const run = await ports.runShell(m[1] as string);
    if (!run.ok) return { ok: false, error: `/${command.name}: !\`${m[1]}\` did not run: ${run.error}` };
    text = text.replace(m[0], () => run.output.trimEnd());
  }

  const refs = [...new Set([...text.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/]+\.[\w]+)/g)].map((m) => m[1] as string))].slice(0, MAX_FILE_REFS);
  const attached: string[] = [];
  for (const ref of refs) {
    const abs = path.resolve(ports.cwd, ref);
    const read = await ports.readFile(abs);
    if (!read.ok) return { ok: false, error: `/${command.name}: @${ref} cannot be included: ${read.error}` };
    attached.push(`Contents of ${abs}:\n\n${read.text}`);
  }
  return { ok: true, prompt: [text.trim(), ...attached].join('\n\n') };
}

/** Splits arguments like a shell: whitespace separates, single or double quotes group. */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}
