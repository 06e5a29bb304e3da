import { splitShellCommand, type SimpleCommand } from './shellCommand';

/**
 * The texts Bash deny and ask rules are matched against, beyond the command as written:
 * each simple command with its name normalised (`/bin/rm`, `\rm`, `'rm'` → `rm`), leading
 * assignments dropped, and wrappers that run their arguments as a command peeled off
 * (`sudo`, `env -i X=1`, `command`, `exec`, `nice`, `nohup`, `timeout 5`, `time`, `xargs`,
 * `find -exec`, `sh -c '…'`, `eval`…). Best effort: a deny rule cannot see through
 * everything a shell can do, which is why real policy belongs in a PreToolUse hook.
 */

interface Wrapper {
  /** Options that take the next word as their value (when not attached). */
  readonly valued?: readonly string[];
  /** Positional words before the command (`timeout 5`, `chroot DIR`). */
  readonly skip?: number;
  /** Option whose value is a shell command string (`sh -c`, `su -c`, `flock -c`). */
  readonly commandOption?: string;
}

const SHELL: Wrapper = { commandOption: 'c', valued: ['-o', '-O', '+o', '+O'] };
const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  command: {},
  builtin: {},
  exec: { valued: ['-a'] },
  nohup: {},
  time: { valued: ['-o', '-f', '--output', '--format'] },
  nice: { valued: ['-n', '--adjustment'] },
  sudo: {
    valued: [
      '-u',
      '-g',
      '-C',
      '-D',
      '-h',
      '-p',
      '-r',
      '-t',
      '-U',
      '-T',
      '-R',
      '--user',
      '--group',
      '--chdir',
      '--host',
      '--prompt',
      '--role',
      '--type',
      '--other-user',
      '--command-timeout',
      '--chroot',
      '--close-from',
    ],
  },
  doas: { valued: ['-u', '-C'] },
  run0: { valued: ['-u', '-g', '-D', '--user', '--group', '--chdir'] },
  pkexec: { valued: ['--user'] },
  env: { valued: ['-u', '-C', '-P', '--unset', '--chdir'] },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'], skip: 1 },
  xargs: {
    valued: [
      '-a',
      '-d',
      '-E',
      '-e',
      '-I',
      '-i',
      '-L',
      '-l',
      '-n',
      '-P',
      '-s',
      '--arg-file',
      '--delimiter',
      '--eof',
      '--replace',
      '--max-lines',
      '--max-args',
      '--max-procs',
      '--max-chars',
      '--process-slot-var',
    ],
  },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  ionice: { valued: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'] },
  setsid: {},
  unbuffer: {},
  caffeinate: { valued: ['-t', '-w'] },
  chrt: { skip: 1 },
  taskset: { skip: 1 },
  chroot: { valued: ['--userspec', '--groups'], skip: 1 },
  flock: { valued: ['-w', '-E', '--timeout', '--conflict-exit-code'], skip: 1, commandOption: 'c' },
  strace: { valued: ['-o', '-e', '-p', '-s', '-u', '-E', '-P', '-a', '-b', '-I', '-O', '-S', '-X'] },
  ltrace: { valued: ['-o', '-e', '-p', '-s', '-u', '-a', '-n', '-l', '-L', '-w'] },
  su: { valued: ['-g', '-G', '-s', '--shell', '--group'], commandOption: 'c' },
  watch: { valued: ['-n', '-d', '--interval', '--differences'] },
  sh: SHELL,
  bash: SHELL,
  dash: SHELL,
  zsh: SHELL,
  ksh: SHELL,
  mksh: SHELL,
  busybox: {},
};
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until']);
const MAX_DEPTH = 6;

/** Deny forms of one simple command's words (see the file comment). */
export function bashDenyForms(words: readonly string[], depth = 0): string[] {
  const forms: string[] = [];
  let rest = [...words];
  for (let round = 0; round < 16; round++) {
    while (rest.length > 0 && (ASSIGNMENT.test(rest[0] as string) || RESERVED.has(rest[0] as string))) rest.shift();
    const name = rest[0];
    if (name === undefined) break;
    const base = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
    rest = [base, ...rest.slice(1)];
    forms.push(rest.join(' '));
    if (depth < MAX_DEPTH) {
      if (base === 'eval') forms.push(...denyFormsOfScript(rest.slice(1).join(' '), depth + 1));
      if (base === 'find') forms.push(...findExecForms(rest, depth + 1));
      if (base === 'watch') forms.push(...denyFormsOfScript(skipOptions(rest, WRAPPERS.watch as Wrapper).words.join(' '), depth + 1));
    }
    const wrapper = WRAPPERS[base];
    // `command -v rm` only looks the name up.
    if (!wrapper || base === 'watch' || (base === 'command' && rest.some((w) => w === '-v' || w === '-V'))) break;
    const { words: after, script, splitString } = skipOptions(rest, wrapper);
    if (script !== undefined && depth < MAX_DEPTH) forms.push(...denyFormsOfScript(script, depth + 1));
    if (splitString !== undefined && depth < MAX_DEPTH) forms.push(...bashDenyForms([...splitString.split(/\s+/).filter(Boolean), ...after], depth + 1));
    if (wrapper === SHELL || (wrapper.commandOption !== undefined && script !== undefined)) break;
    rest = after;
  }
  return forms;
}

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'su', 'sudo', 'doas']);

/**
 * Deny forms of one simple command: its words' forms, plus the forms of the script it reads
 * from a here-document or here-string when it is (or wraps) a shell: `bash <<EOF…`.
 */
export function commandDenyForms(command: SimpleCommand, depth = 0): string[] {
  const forms = bashDenyForms(command.words, depth);
  if (command.stdin.length > 0 && depth < MAX_DEPTH && forms.some((form) => SHELLS.has(form.split(' ', 1)[0] as string))) {
    for (const script of command.stdin) forms.push(...denyFormsOfScript(script, depth + 1));
  }
  return forms;
}

/** Every deny form of a command string (`sh -c` / `eval` argument), its parts as written too. */
export function denyFormsOfScript(script: string, depth = 0): string[] {
  const split = splitShellCommand(script);
  const forms = split.commands.flatMap((c) => [c.text, ...commandDenyForms(c, depth)]);
  if (split.unsure !== undefined) forms.push(...roughDenyForms(script, depth));
  return forms;
}

/**
 * For a command the lexer is unsure about: cut the raw text at every operator, quote or not,
 * and take each piece's words with quote characters dropped. Over-matches on purpose (deny fails closed).
 */
export function roughDenyForms(command: string, depth = 0): string[] {
  return command
    .split(/[;&|()\n`]|\$\(|[<>]\(/)
    .map((piece) =>
      piece
        .replace(/\\\n/g, '')
        .replace(/["'\\]/g, '')
        .trim(),
    )
    .filter((piece) => piece !== '')
    .flatMap((piece) => {
      // `{rm,-rf,x}` is `rm -rf x` to bash.
      const unbraced = piece.replace(/[{},]/g, ' ').trim();
      return [piece, unbraced, ...bashDenyForms(piece.split(/[ \t]+/), depth + MAX_DEPTH), ...bashDenyForms(unbraced.split(/[ \t]+/), depth + MAX_DEPTH)];
    });
}

function findExecForms(words: readonly string[], depth: number): string[] {
  const forms: string[] = [];
  for (let i = 1; i < words.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(words[i] as string)) continue;
    let end = i + 1;
    while (end < words.length && words[end] !== ';' && words[end] !== '+') end++;
    forms.push(...bashDenyForms(words.slice(i + 1, end), depth));
    i = end;
  }
  return forms;
}

/** Skips a wrapper's name, options and fixed positionals; returns the wrapped command's words. */
function skipOptions(words: readonly string[], wrapper: Wrapper): { words: string[]; script?: string; splitString?: string } {
  let i = 1;
  let script: string | undefined;
  let splitString: string | undefined;
  let wantsScript = false;
  while (i < words.length) {
    const word = words[i] as string;
    if (word === '--') {
      i++;
      break;
    }
    if (!/^[-+]./.test(word)) break;
    i++;
    const [flag, attached] = word.startsWith('--') ? (word.split('=', 2) as [string, string?]) : [word, undefined];
    if (flag === '-S' || flag === '--split-string') {
      splitString = attached ?? words[i++];
      continue;
    }
    if (wrapper.valued?.includes(flag) && attached === undefined) i++;
    if (wrapper.commandOption !== undefined && !word.startsWith('--') && word.slice(1).includes(wrapper.commandOption)) wantsScript = true;
  }
  if (wantsScript) {
    script = words[i];
    return { words: [], ...(script !== undefined ? { script } : {}) };
  }
  i += wrapper.skip ?? 0;
  return { words: words.slice(i), ...(splitString !== undefined ? { splitString } : {}) };
}
