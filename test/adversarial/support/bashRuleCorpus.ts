import { seededRandom } from './seededRandom';

/**
 * Generates the Bash-rule differential corpus: command lines that mix commands the rules
 * allow (`echo`, `ls`, `npm test`) with an injected command that creates a marker file named
 * `PWN` in the working directory, through every shell construct that can hide a command
 * (comments, continuations, heredocs, substitutions, process substitution, `&`, `|&`, `;;`,
 * groups, quoting tricks). Seeded, so a failure is reproducible.
 */

/** The rules the corpus is evaluated against. */
export const CORPUS_ALLOW_RULES = ['Bash(echo:*)', 'Bash(npm test:*)', 'Bash(ls:*)'];

const ALLOWED = [
  'echo hi',
  'echo',
  'ls',
  'ls -la',
  'npm test',
  'npm test -- --watch',
  "echo 'a b'",
  'echo "a # b"',
  'echo a#b',
  'ls .',
  'npm test 2>&1',
  'echo x >/dev/null',
];
/** Each creates `PWN` in the working directory. */
const MARKERS = [
  'touch PWN',
  'mkdir PWN',
  'cp /dev/null PWN',
  ': > PWN',
  'printf x >PWN',
  'tee PWN </dev/null',
  'ln -s x PWN',
  'sh -c "touch PWN"',
  '>PWN',
  'echo x >PWN',
  'echo x >>PWN',
  'ls >PWN',
  'echo x 1>PWN',
  'npm test >PWN',
];

/** Templates: `A` is an allowed command, `B` the injected one. */
const HIDING = [
  'A; B',
  'A;B',
  'A && B',
  'A || B',
  'A | B',
  'A & B',
  'A |& B',
  'A\nB',
  'A\r\nB',
  'A #\\\nB',
  'A # comment\nB',
  'A #c \\\nB',
  'A $(B)',
  'A "$(B)"',
  'A `B`',
  'A "`B`"',
  'A <(B)',
  'A >(B)',
  'A <(A; B)',
  'A >(A | B)',
  '(B)',
  '(A; B)',
  '{ B; }',
  '{ A; B; }',
  'A <<EOF\n$(B)\nEOF',
  'A <<EOF\n`B`\nEOF',
  'A <<-EOF\n\t$(B)\n\tEOF',
  'A <<EOF\nx\nEOF\nB',
  'A <<EOF\nx\\\nEOF\nB\nEOF',
  'A <<EOF; B\nbody\nEOF',
  "A <<'EOF'\nbody\nEOF\nB",
  'A <<EOF\nEOF\nB',
  'A ${x:-$(B)}',
  'A "${x:-`B`}"',
  'A $((0 + $(B)))',
  'A &>/dev/null B',
  'A &> PWN',
  "A $'\\''; B",
  "A $'x' ; B",
  'A "x"; B',
  "A 'x'; B",
  'A \\\\; B',
  'if A; then B; fi',
  'while false; do A; done; B',
  'for i in 1; do B; done',
  'case x in x) B;; esac',
  'A ;; B',
  'f() { B; }; f',
  'A; f() { B; }; A',
  'eval "B"',
  'A; eval B',
  'X=B; $X',
  '$(echo B)',
  '`echo B`',
  'A `echo; B`',
  'A "$(A "$(B)")"',
  'A $(A $(A $(B)))',
  'A "\\"$(B)\\""',
  "A '\"'$(B)'\"'",
  'A "\'"$(B)"\'"',
  'A x=$(B)',
  'x=$(B) A',
  'A >$(B)',
  'A 2>$(B)',
  'A <$(B)',
  'A ! B',
  '! B',
  'A \\\n; B',
  'A "\\\n"; B',
  "A '\\\n'; B",
  'A $(\nB\n)',
  'A $( # )\nB\n)',
  'A <<E1 <<E2\nx\nE1\n$(B)\nE2',
  'A "$(cat <<EOF\n$(B)\nEOF\n)"',
  'A "$(cat <<\'EOF\'\n$(B)\nEOF\n)"',
  'A\\\n;B',
  'A "$\\\n(B)"',
  'A $\\\n(B)',
  'A ${x:-$\\\n(B)}',
  'A &\\\n& B',
  'A <\\\n(B)',
  'A\t;\tB',
  'A ${#x} ; B',
  'A $# ; B',
  'A {a,b}; B',
  '{B,x}',
  'A; {B,}',
];

/** Templates whose `B` is only data for the shell: allowed when `A` is, and must not run it. */
const DATA_ONLY = [
  "A 'B'",
  'A "B"',
  'A # B',
  'A #; B',
  'A # $(B)',
  'A \\$(B)',
  "A '$(B)'",
  'A "\\$(B)"',
  "A '`B`'",
  'A "\\`B\\`"',
  "A <<'EOF'\n$(B)\nEOF",
  'A <<"EOF"\n`B`\nEOF',
  'A <<\\EOF\n$(B)\nEOF',
  'A <<EOF\nB\nEOF',
  "A <<-'EOF'\n\t$(B)\n\tEOF",
  'A "; B"',
  "A ';' B",
  'A \\; B',
  'A \\&\\& B',
  'A \\| B',
  'A \\\nB',
  'A \\\n\\\nB',
  'A "a\nb" B',
  'A #\n',
  'A && A # B',
  'A ${x:-B}',
  'A "${x:-B}"',
  'A $x B',
  'A \\#; A',
  'A "#"; A',
  'A a#b; A',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function noise(random: () => number, command: string): string {
  let text = command;
  // Extra blanks around operators; the meaning does not change.
  if (random() < 0.3) text = text.replace(/ /g, () => pick(random, [' ', '  ', '\t', ' ']));
  // Line continuations anywhere: the shells delete them first, even inside a token (`$\<nl>(`).
  while (random() < 0.15) {
    const at = Math.floor(random() * (text.length + 1));
    text = `${text.slice(0, at)}\\\n${text.slice(at)}`;
  }
  return text;
}

function allowed(random: () => number, depth: number): string {
  if (depth > 0 && random() < 0.25) return `${allowed(random, depth - 1)} ${pick(random, ['&&', '||', ';', '|'])} ${allowed(random, depth - 1)}`;
  return pick(random, ALLOWED);
}

function injected(random: () => number, depth: number): string {
  if (depth > 0 && random() < 0.3) return fill(random, pick(random, HIDING), depth - 1);
  return pick(random, MARKERS);
}

function fill(random: () => number, template: string, depth: number): string {
  return template.replace(/[AB]/g, (slot) => (slot === 'A' ? allowed(random, depth) : injected(random, depth)));
}

/** Fragments for token soup: random shell syntax around an allowed command and a marker. */
const SOUP = [
  ' ',
  ' ',
  ' ',
  '\t',
  ';',
  '&',
  '&&',
  '|',
  '||',
  '|&',
  ';;',
  '\n',
  '\r',
  '#',
  '\\',
  '\\\n',
  "'",
  '"',
  '`',
  '$(',
  ')',
  '(',
  '{ ',
  ' }',
  '<<',
  '<<-',
  'EOF',
  "'EOF'",
  '\nEOF\n',
  '<(',
  '>(',
  "$'",
  '${',
  '}',
  '$',
  '$x',
  '>',
  '>&',
  '&>',
  '2>&1',
  '<',
  'if ',
  'then ',
  'fi',
  'do ',
  'done',
  '!',
  'x=',
  '*',
  '?',
  '[',
  ']',
  '=',
  ',',
  '-',
  'touch PWN',
  'touch PWN',
  '>PWN',
  'echo',
  'ls',
  'npm test',
  'hi',
  '\\"',
  "\\'",
  '\\`',
  '\\$',
];

function soup(random: () => number): string {
  let text = pick(random, ALLOWED);
  const length = 1 + Math.floor(random() * 8);
  for (let i = 0; i < length; i++) text += pick(random, SOUP);
  return text;
}

/** `count` generated command lines (the issue's repro first): templates, and token soup for the rest. */
export function generateBashCorpus(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const corpus = ['npm test #\\\ntouch PWN'];
  while (corpus.length < count) {
    const roll = random();
    if (roll < 0.3) corpus.push(noise(random, soup(random)));
    else corpus.push(noise(random, fill(random, pick(random, roll < 0.55 ? DATA_ONLY : HIDING), 2)));
  }
  return corpus;
}

const DENY_NAMES = ['rm', '/bin/rm', '/usr/bin/rm', '\\rm', "'rm'", '"rm"', 'r""m', "r''m", 'r\\m'];
const DENY_WRAPPERS = [
  '',
  'sudo ',
  'sudo -u root -- ',
  'doas ',
  'env ',
  'env -i PATH=/bin A=1 ',
  'command ',
  'builtin ',
  'exec ',
  'nice ',
  'nice -n 5 ',
  'nohup ',
  'timeout 5 ',
  'timeout -s KILL 5s ',
  'time ',
  'xargs ',
  'xargs -0 -n1 ',
  'A=1 ',
  'A=1 B=2 ',
  'stdbuf -oL ',
  'setsid ',
  'busybox ',
  '! ',
];
/** `X` is the evasive rm command. */
const DENY_CONTEXTS = [
  'X',
  'echo ok && X',
  'echo ok; X',
  'echo ok || X',
  'echo ok | X',
  'echo ok & X',
  'echo ok\nX',
  'echo ok #\\\nX',
  'echo $(X)',
  'echo "$(X)"',
  'echo `X`',
  'ls <(X)',
  'ls >(X)',
  '(X)',
  '{ X; }',
  'if true; then X; fi',
  'while false; do :; done; X',
  "sh -c 'X'",
  'bash -lc "X"',
  'eval "X"',
  'bash <<EOF\nX\nEOF',
  "sh <<'EOF'\nX\nEOF",
  'cat <<EOF\n$(X)\nEOF',
  'find . -exec X {} \\;',
  'f() { X; }; f',
  'for f in a; do X; done',
  'echo ${x:-$(X)}',
];

/** `count` seeded evasions of `rm -rf build` that a `Bash(rm:*)` deny rule must catch. */
export function generateDenyEvasions(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const cases: string[] = [];
  while (cases.length < count) {
    const wrappers = pick(random, DENY_WRAPPERS) + (random() < 0.4 ? pick(random, DENY_WRAPPERS) : '');
    const inner = `${wrappers}${pick(random, DENY_NAMES)} -rf build`;
    const context = pick(random, DENY_CONTEXTS);
    // A context that quotes must not meet its own quote inside.
    if ((context.includes("'X'") || context.includes("'EOF'")) && inner.includes("'")) continue;
    if (context.includes('"X"') && inner.includes('"')) continue;
    cases.push(context.replace('X', inner));
  }
  return cases;
}
