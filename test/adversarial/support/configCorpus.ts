import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, symlinkSync, writeFileSync, ftruncateSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from './seededRandom';

/**
 * The malformed-config corpus (docs/security.md): generated hostile `.claude/settings*.json`
 * and `.claude/agents/*.md` files. Each case writes itself into a workspace; every case
 * must load as a diagnostic naming its file while the user's own hooks still load.
 */

/** What the loader must do with a case's file. */
export type Expectation =
  /** An error diagnostic naming the file. */
  | 'diagnostic'
  /** Loads (possibly with warnings); its valid hook, if any, is present. */
  | 'loads'
  /** Either, as long as nothing throws and the other sources load (e.g. permission-dependent). */
  | 'any';

export interface ConfigCase {
  readonly name: string;
  /** Path relative to the workspace root, e.g. `.claude/settings.json`. */
  readonly rel: string;
  readonly expect: Expectation;
  /** Creates the file (or directory, FIFO, symlink) at `abs`. */
  readonly write: (abs: string) => void;
  /** Bytes on disk (for the summary line). */
  readonly bytes: number;
}

const text = (name: string, rel: string, expect: Expectation, content: string | Buffer): ConfigCase => ({
  name,
  rel,
  expect,
  bytes: Buffer.byteLength(content),
  write: (abs) => writeFileSync(abs, content),
});

const SETTINGS = '.claude/settings.json';
const LOCAL = '.claude/settings.local.json';
const AGENT = '.claude/agents/bad.md';
const hook = (command: string) => ({ type: 'command', command });
const valid = { hooks: { Stop: [{ hooks: [hook('echo project-ok')] }] } };

function deepJson(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

function billionLaughs(levels: number): string {
  const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < levels; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
  return `---\nname: bomb\n${lines.join('\n')}\nhooks:\n  Stop: [{hooks: [{type: command, command: echo bomb}]}]\n---\nbody\n`;
}

/** The generated corpus: settings JSON, local settings and agent markdown, ≥ 40 cases. */
export function configCorpus(seed = 12): ConfigCase[] {
  const rnd = seededRandom(seed);
  const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => Math.floor(rnd() * 256)));
  const cases: ConfigCase[] = [];

  // Deep nesting in every position the parser recurses.
  for (const depth of [65, 1000, 20_000, 200_000]) {
    cases.push(text(`deep arrays ${depth}`, SETTINGS, 'diagnostic', `{"x": ${deepJson(depth, '[', ']')}}`));
    cases.push(text(`deep objects ${depth}`, LOCAL, 'diagnostic', `{"hooks": ${deepJson(depth, '{"a":', '}')}}`));
  }
  cases.push(
    text(
      'deep inside a handler',
      SETTINGS,
      'diagnostic',
      `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","extra":${deepJson(5000, '[', ']')}}]}]}}`,
    ),
  );
  cases.push(text('deep, unclosed', SETTINGS, 'diagnostic', `{"a":${'['.repeat(100_000)}`));
  cases.push(
    text(
      'brackets in strings and comments are not depth',
      SETTINGS,
      'loads',
      `// ${'['.repeat(500)}\n{"note": "${'{'.repeat(500)}", /* ${'['.repeat(500)} */ ${JSON.stringify(valid).slice(1)}`,
    ),
  );

  // Size.
  cases.push(text('3 MiB of whitespace', SETTINGS, 'diagnostic', `${' '.repeat(3 * 1024 * 1024)}{}`));
  cases.push({
    name: '50 MB sparse file',
    rel: SETTINGS,
    expect: 'diagnostic',
    bytes: 50_000_000,
    write: (abs) => {
      const fd = openSync(abs, 'w');
      ftruncateSync(fd, 50_000_000);
      closeSync(fd);
    },
  });
  cases.push(text('a 2.5 MiB hook command', LOCAL, 'diagnostic', JSON.stringify({ hooks: { Stop: [{ hooks: [hook('x'.repeat(2.5 * 1024 * 1024))] }] } })));

  // Bytes that are not JSON.
  cases.push(text('binary garbage', SETTINGS, 'diagnostic', bytes(4096)));
  cases.push(
    text(
      'invalid UTF-8 in a value',
      SETTINGS,
      'loads',
      Buffer.concat([Buffer.from('{"x": "'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from(`", ${JSON.stringify(valid).slice(1)}`)]),
    ),
  );
  cases.push(text('NUL bytes', LOCAL, 'diagnostic', Buffer.concat([Buffer.from('{"hooks":'), Buffer.alloc(64), Buffer.from('}')])));
  cases.push(text('UTF-16 LE with BOM', SETTINGS, 'diagnostic', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(valid), 'utf16le')])));
  cases.push(text('UTF-8 BOM', SETTINGS, 'loads', `\uFEFF${JSON.stringify(valid)}`));
  cases.push(
    text(
      'comments and trailing commas',
      SETTINGS,
      'loads',
      `// c\n{ /* c */ "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo project-ok",},],},],}, }`,
    ),
  );
  cases.push(text('duplicate keys', SETTINGS, 'any', `{"hooks": {"Stop": 5}, "hooks": ${JSON.stringify(valid.hooks)}}`));
  cases.push(text('CRLF line ends', LOCAL, 'loads', JSON.stringify(valid, null, 2).replace(/\n/g, '\r\n')));

  // Not an object / broken syntax.
  for (const [name, content] of [
    ['empty array', '[]'],
    ['a string', '"hooks"'],
    ['a number', '42'],
    ['null', 'null'],
    ['unterminated string', '{"hooks": "abc'],
    ['unterminated object', '{"hooks": {"Stop": ['],
    ['only a comment', '/* nothing */ //'],
    ['a lone brace', '}'],
  ] as const) {
    cases.push(text(name, SETTINGS, name === 'only a comment' ? 'any' : 'diagnostic', content));
  }

  // Wrong types everywhere.
  const wrong: [string, unknown][] = [
    ['hooks is a number', { hooks: 5 }],
    ['hooks is an array', { hooks: [] }],
    // (An object is the named-map alternate spelling and a string a command shorthand: both load, so numbers here.)
    ['event is a number', { hooks: { PreToolUse: 5 } }],
    ['group hooks is a number', { hooks: { PreToolUse: [{ hooks: 5 }] } }],
    ['named map entry is a number', { hooks: { preToolUse: { guard: 5 } } }],
    ['handler type is a number', { hooks: { Stop: [{ hooks: [{ type: 7, command: 'x' }] }] } }],
    ['timeout is a string', { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: '5' }] }] } }],
    ['matcher is an object', { hooks: { PreToolUse: [{ matcher: {}, hooks: [hook('x')] }] } }],
    ['matcher is a bad regex', { hooks: { PreToolUse: [{ matcher: '(((', hooks: [hook('x')] }] } }],
    ['permissions is a string', { permissions: 'all' }],
    ['allow holds numbers', { permissions: { allow: [1, 2, null] } }],
    ['defaultMode is a number', { permissions: { defaultMode: 3 } }],
    ['additionalDirectories is an object', { permissions: { additionalDirectories: {} } }],
    ['disableAllHooks is a string', { disableAllHooks: 'yes' }],
  ];
  for (const [name, value] of wrong) cases.push(text(name, rnd() < 0.5 ? SETTINGS : LOCAL, 'diagnostic', JSON.stringify(value)));
  // An unknown event is a warning (the rest of the file loads), so any outcome but a throw or a hang will do.
  cases.push(text('unknown event with a huge name', SETTINGS, 'any', JSON.stringify({ hooks: { ['E'.repeat(100_000)]: [] } })));

  // Not a regular file.
  cases.push({ name: 'a directory named settings.json', rel: SETTINGS, expect: 'diagnostic', bytes: 0, write: (abs) => mkdirSync(abs) });
  cases.push({ name: 'a symlink loop', rel: SETTINGS, expect: 'diagnostic', bytes: 0, write: (abs) => symlinkSync(path.basename(abs), abs) });
  cases.push({ name: 'a FIFO (must not hang)', rel: LOCAL, expect: 'diagnostic', bytes: 0, write: (abs) => execFileSync('mkfifo', [abs]) });
  cases.push({ name: 'a symlink to /dev/zero', rel: SETTINGS, expect: 'diagnostic', bytes: 0, write: (abs) => symlinkSync('/dev/zero', abs) });
  cases.push({
    name: 'unreadable (mode 000)',
    rel: SETTINGS,
    // root reads it anyway: then it is a valid file.
    expect: process.getuid?.() === 0 ? 'loads' : 'diagnostic',
    bytes: 0,
    write: (abs) => {
      writeFileSync(abs, JSON.stringify(valid));
      chmodSync(abs, 0o000);
    },
  });

  // Agent files.
  cases.push(text('YAML alias bomb', AGENT, 'diagnostic', billionLaughs(9)));
  cases.push(text('YAML alias bomb, small', AGENT, 'diagnostic', billionLaughs(4)));
  cases.push(text('YAML deep flow 10000', AGENT, 'diagnostic', `---\nname: d\nhooks: ${deepJson(10_000, '[', ']', '')}\n---\n`));
  cases.push(text('YAML deep flow maps 500', AGENT, 'diagnostic', `---\nname: d\nx: ${deepJson(500, '{a: ', '}')}\n---\n`));
  cases.push(
    text(
      'YAML deep block nesting 300',
      AGENT,
      'diagnostic',
      `---\nname: d\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} v\n---\n`,
    ),
  );
  cases.push(text('frontmatter of 3 MiB', AGENT, 'diagnostic', `---\nname: big\nx: "${'y'.repeat(3 * 1024 * 1024)}"\n---\n`));
  cases.push(text('unterminated frontmatter', AGENT, 'any', `---\nname: open\nhooks:\n  Stop: []\n`));
  cases.push(text('frontmatter is a list', AGENT, 'diagnostic', '---\n- a\n- b\n---\n'));
  cases.push(text('tabs and bad indentation', AGENT, 'diagnostic', '---\nname: t\nhooks:\n\tStop:\n  - x: [\n---\n'));
  cases.push(
    text(
      'hooks of wrong types',
      AGENT,
      'diagnostic',
      '---\nname: w\nhooks:\n  Stop: 5\n  PreToolUse: [{hooks: [{type: command, command: 3, timeout: "9"}]}]\n---\n',
    ),
  );
  cases.push(text('binary agent file', AGENT, 'any', Buffer.concat([Buffer.from('---\n'), bytes(2048), Buffer.from('\n---\n')])));
  cases.push(text('unknown YAML tags', AGENT, 'any', '---\nname: !!js/function "x"\nhooks: !custom {a: 1}\n---\n'));
  cases.push({ name: 'agent .md is a directory', rel: AGENT, expect: 'diagnostic', bytes: 0, write: (abs) => mkdirSync(abs) });
  cases.push({ name: 'agent .md is a FIFO', rel: AGENT, expect: 'diagnostic', bytes: 0, write: (abs) => execFileSync('mkfifo', [abs]) });
  cases.push({
    name: '600 agent files',
    rel: '.claude/agents',
    expect: 'diagnostic',
    bytes: 600 * 20,
    write: (abs) => {
      mkdirSync(abs, { recursive: true });
      for (let i = 0; i < 600; i++) writeFileSync(path.join(abs, `a${String(i).padStart(3, '0')}.md`), `---\nname: a${i}\n---\n`);
    },
  });
  return cases;
}
