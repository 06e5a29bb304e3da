import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigPermissionRules } from '../../src/permissions/configPermissionRules';
import { createEditTool } from '../../src/agent/tools/editTool';
import { createGlobTool } from '../../src/agent/tools/globTool';
import { createGrepTool } from '../../src/agent/tools/grepTool';
import { createReadTool } from '../../src/agent/tools/readTool';
import { createTodoStore } from '../../src/agent/tools/todoStore';
import type { AnyAgentTool, ToolContext, ToolResult } from '../../src/agent/tools/tool';
import { isInsideDir, realpathLenient } from '../../src/agent/tools/workspacePaths';
import { createWriteTool } from '../../src/agent/tools/writeTool';
import type { PermissionRuleEntry } from '../../src/permissions/permissionRules';
import { parsePermissionRule } from '../../src/permissions/permissionRules';
import { DENY_RULES, MARKERS, makePathEscapeFixture } from './support/pathEscapeFixture';
import { seededRandom } from './support/seededRandom';
import type { PathEscapeFixture } from './support/pathEscapeFixture';

/**
 * Path and symlink escapes for every file tool (docs/security.md): generated paths, globs and
 * searches against a real layout full of symlinks out of the workspace and into denied
 * files, run the way the agent runs a call in bypassPermissions mode (the deny rules are the
 * only policy: a call they do not deny executes). Safe outcome for every case: no marker
 * text from outside or from a denied file in the output, nothing listed or touched whose
 * real path is outside the workspace or denied, and the outside/home/denied trees unchanged.
 */

const SEED = Number(process.env.ADVERSARIAL_SEED ?? 20261126);
const RANDOM_FILE_PATHS = 260;
const RANDOM_GLOBS = 360;
const RANDOM_GREPS = 140;

interface Failure {
  readonly tool: string;
  readonly input: Record<string, unknown>;
  readonly why: string;
}

let fx: PathEscapeFixture;
let rules: ConfigPermissionRules;
let ctx: ToolContext;
let wsReal: string;
let before: Map<string, string>;
const savedHome = process.env.HOME;
const failures: Failure[] = [];
const tally = { cases: 0, denied: 0, refused: 0, ran: 0, hidden: 0 };
const perTool: Record<string, number> = {};

const read = createReadTool();
const write = createWriteTool();
const edit = createEditTool();
const glob = createGlobTool();
const grep = createGrepTool({ timeoutMs: 10_000 });

beforeAll(async () => {
  fx = await makePathEscapeFixture();
  // `~` must land in the fixture's fake home, never in the real one.
  process.env.HOME = fx.home;
  wsReal = await realpathLenient(fx.ws);
  const entries: PermissionRuleEntry[] = DENY_RULES.map((text) => {
    const parsed = parsePermissionRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return { behavior: 'deny', rule: parsed.rule, source: { kind: 'code', label: 'adversarial' } };
  });
  rules = new ConfigPermissionRules(entries, { projectRoot: fx.ws, homeDir: fx.home });
  ctx = {
    cwd: fx.ws,
    workspaceRoot: fx.ws,
    signal: new AbortController().signal,
    sessionId: 'adv',
    agentId: 'main',
    todos: createTodoStore(),
    readDeniedBy: (abs, real) => rules.readDeniedBy(abs, real, fx.ws),
  };
  before = await fx.snapshot();
});

afterAll(async () => {
  process.env.HOME = savedHome;
  await fx?.cleanup();
});

/** One call as the agent makes it in bypassPermissions mode, then every safety check on its result. */
async function runCase(tool: AnyAgentTool, input: Record<string, unknown>): Promise<void> {
  tally.cases++;
  perTool[tool.name] = (perTool[tool.name] ?? 0) + 1;
  const fail = (why: string): void => void failures.push({ tool: tool.name, input, why });
  if (rules.evaluate(tool.name, input, fx.ws)?.behavior === 'deny') {
    tally.denied++;
    return;
  }
  let result: ToolResult;
  try {
    result = await tool.execute(input, ctx);
  } catch (err) {
    fail(`threw: ${String(err)}`);
    return;
  }
  if (result.isError) tally.refused++;
  else tally.ran++;
  const text = `${result.content}\n${JSON.stringify(result.data ?? null)}`;
  for (const marker of MARKERS) if (text.includes(marker)) fail(`output contains ${marker}`);
  const hidden = /(\d+) file\(s\) hidden by permission rules/.exec(result.content);
  if (hidden) tally.hidden += Number(hidden[1]);
  if (result.isError) return;

  const data = result.data as Record<string, unknown> | undefined;
  const listed: string[] = [];
  if (tool.name === 'Glob' || tool.name === 'Grep') listed.push(...((data?.filenames as string[] | undefined) ?? []));
  if (tool.name === 'Read') listed.push((data?.file as { filePath: string }).filePath);
  if (tool.name === 'Write' || tool.name === 'Edit') listed.push(data?.filePath as string);
  for (const file of listed) {
    const real = await realpathLenient(file);
    if (!isInsideDir(wsReal, real)) fail(`touched or listed ${file}, really ${real}, outside the workspace`);
    const readOnly = tool.name === 'Read' || tool.name === 'Glob' || tool.name === 'Grep';
    if (readOnly && rules.readDeniedBy(file, undefined, fx.ws)) fail(`showed ${file}, which a Read rule denies`);
    if (!readOnly && rules.evaluate('Edit', { file_path: real }, fx.ws)?.behavior === 'deny') fail(`changed ${file}, which an Edit rule denies`);
  }
}

async function assertTreesUnchanged(tool: string, input: Record<string, unknown>): Promise<void> {
  const now = await fx.snapshot();
  const changed = [...new Set([...before.keys(), ...now.keys()])].filter((k) => before.get(k) !== now.get(k));
  if (changed.length > 0) {
    failures.push({ tool, input, why: `changed outside/home/denied trees: ${changed.join(', ')}` });
    before = now; // report each change once
  }
}

// ---- generated inputs ------------------------------------------------------------------

const rnd = seededRandom(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;

function fixedFilePaths(): string[] {
  const { ws, outside, base, home } = fx;
  return [
    '../outside/secret.txt',
    'sub/../../outside/secret.txt',
    './../outside/secret.txt',
    `${outside}/secret.txt`,
    `${ws}/../outside/secret.txt`,
    `${base}/ws-sibling/secret.txt`,
    `${ws}-sibling/secret.txt`,
    '/etc/passwd',
    '/etc/hostname',
    '~/.bashrc',
    '~',
    `${home}/.bashrc`,
    'l_home/.bashrc',
    'l_file',
    'l_dir/secret.txt',
    'l_dir/deep/dir/secret.txt',
    'l_rel_dir/secret.txt',
    'c1',
    'sub/l_up/outside/secret.txt',
    'l_parent/outside/secret.txt',
    'l_sibling/secret.txt',
    'l_denied',
    'l_denied_rel',
    'd1',
    'l_innerdir/secret.env',
    'inner/secret.env',
    './inner/../inner/secret.env',
    'inner//secret.env',
    `${ws}/inner/secret.env`,
    'sub/l_up/ws/inner/secret.env',
    'l_parent/ws/inner/secret.env',
    'l_keys/server.key',
    'keys/server.key',
    `inner/${'clé.env'.normalize('NFC')}`,
    `inner/${'clé.env'.normalize('NFD')}`,
    'INNER/secret.env',
    'inner/Secret.env',
    'l_dangling',
    'l_dangling_dir/x.txt',
    'loop1',
    'loop1/x',
    'inner/secret.env\0.txt',
    '\0',
    `l_file\0`,
    `${'a/'.repeat(3000)}x`,
    `${'../'.repeat(200)}etc/passwd`,
    `${'sub/../'.repeat(500)}../outside/secret.txt`,
    'l_innerdir/new.txt',
    'inner/new.txt',
    'l_dir/new.txt',
    'l_rel_dir/new.txt',
  ];
}

function randomFilePath(): string {
  const prefix = pick(['', '', '', './', `${fx.ws}/`, `${fx.base}/`, '/', '~/', `${fx.ws}/sub/`]);
  const n = 1 + Math.floor(rnd() * 5);
  const parts = Array.from({ length: n }, () => pick(fx.segments));
  let p = prefix + parts.join(pick(['/', '/', '/', '//']));
  const twist = rnd();
  if (twist < 0.04) p += '\0';
  else if (twist < 0.07) p = `${p}/`;
  else if (twist < 0.09) p = `${'x/'.repeat(2100)}${p}`;
  return p === '' ? '.' : p;
}

const GLOB_TOKENS = [
  '*',
  '**',
  '?',
  '..*',
  '..?(x)',
  '..!(y)',
  '@(..)',
  '+(.)',
  '{..,.}',
  '{..,src}',
  '[.][.]',
  '.*',
  '*(.)',
  '..+(.)',
  '.?',
  '?(.).',
  'l_dir',
  'l_innerdir',
  'l_keys',
  'c1',
  'outside',
  'inner',
  'keys',
  'secret*',
  '*.env',
  '*.key',
  '*.txt',
  '*secret*',
  'cl*',
  'ws*',
  '!(src)',
];

function fixedGlobs(): [string, string | undefined][] {
  const { outside, base, ws } = fx;
  return [
    ['..*/outside/*', undefined],
    ['..?(x)/**/secret*', undefined],
    ['..!(y)/outside/*', undefined],
    ['..*/**/*', undefined],
    ['..*/ws-sibling/*', undefined],
    ['**/*', undefined],
    ['**/secret*', undefined],
    ['**/*.env', undefined],
    ['**/*.key', undefined],
    ['l_dir/*', undefined],
    ['l_dir/**', undefined],
    ['l_innerdir/*', undefined],
    ['c1', undefined],
    ['*', 'l_dir'],
    ['**/*', 'l_dir'],
    ['*', 'l_innerdir'],
    ['**/*', 'inner'],
    ['*', 'l_keys'],
    ['*', '..'],
    ['*', '../outside'],
    ['*', outside],
    [`${outside}/*`, undefined],
    [`${base}/*/secret*`, undefined],
    [`${ws}/..*/outside/*`, undefined],
    ['*', '~'],
    ['*', '/'],
    ['**/*', 'sub/l_up'],
    ['outside/*', 'l_parent'],
    ['*/secret.txt', 'l_parent'],
    ['**/*.env', 'l_parent/ws'],
    ['*', 'inner\0'],
    ['**/*', `${'a/'.repeat(3000)}`],
  ];
}

function randomGlob(): [string, string | undefined] {
  const n = 1 + Math.floor(rnd() * 4);
  const pattern = Array.from({ length: n }, () => pick(GLOB_TOKENS)).join('/');
  const dir = rnd() < 0.6 ? undefined : randomFilePath();
  return [pattern, dir];
}

const GREP_PATTERNS = ['MARKER', 'TOKEN', '.', 'secret', '^', '[A-Z]+_MARKER_[0-9a-f]+', '(?i)marker'];
const GREP_GLOBS = [undefined, undefined, '*.env', '**/*', '../**', '*.key', '**/secret*', '*.txt', '..*/**'];

function fixedGreps(): Record<string, unknown>[] {
  const paths = [
    undefined,
    '.',
    'l_dir',
    'l_file',
    'l_denied',
    'l_denied_rel',
    'd1',
    'inner',
    'l_innerdir',
    'keys',
    'l_keys',
    'c1',
    'sub/l_up',
    'l_parent',
    'l_sibling',
    'l_home',
    '~',
    '..',
    '../outside',
    fx.outside,
    '/etc',
    'inner/secret.env',
    `inner/${'clé.env'.normalize('NFC')}`,
  ];
  return paths.flatMap((p) =>
    (['content', 'files_with_matches', 'count'] as const).map((mode) => ({ pattern: 'MARKER', output_mode: mode, ...(p ? { path: p } : {}) })),
  );
}

function randomGrep(): Record<string, unknown> {
  const g = pick(GREP_GLOBS);
  return {
    pattern: pick(GREP_PATTERNS),
    output_mode: pick(['content', 'files_with_matches', 'count'] as const),
    ...(rnd() < 0.8 ? { path: randomFilePath() } : {}),
    ...(g ? { glob: g } : {}),
  };
}

// ---- the suite -------------------------------------------------------------------------

describe('adversarial: path and symlink escapes through every file tool', () => {
  it("keeps outside and denied files out of every tool's reach", { timeout: 120_000 }, async () => {
    const started = Date.now();
    const filePaths = [...fixedFilePaths(), ...Array.from({ length: RANDOM_FILE_PATHS }, randomFilePath)];
    const globs = [...fixedGlobs(), ...Array.from({ length: RANDOM_GLOBS }, randomGlob)];
    const greps = [...fixedGreps(), ...Array.from({ length: RANDOM_GREPS }, randomGrep)];

    // Read-only tools first, while every marker file is still in place.
    for (const p of filePaths) await runCase(read, { file_path: p });
    for (const [pattern, dir] of globs) await runCase(glob, { pattern, ...(dir !== undefined ? { path: dir } : {}) });
    for (const input of greps) await runCase(grep, input);
    for (const p of filePaths) await runCase(grep, { pattern: 'MARKER', path: p, output_mode: 'content' });
    // Then the writing tools; the watched trees are compared after every call.
    for (const p of filePaths) {
      const input = { file_path: p, old_string: 'TOKEN=', new_string: 'PWNED=' };
      await runCase(edit, input);
      await assertTreesUnchanged('Edit', input);
    }
    for (const p of filePaths) {
      const input = { file_path: p, content: 'PWNED\n' };
      await runCase(write, input);
      await assertTreesUnchanged('Write', input);
    }

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const tools = Object.entries(perTool)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
    console.log(
      `[adversarial] path-escapes: ${tally.cases} cases, ${failures.length} failures, ${tally.denied} denied by rule, ${tally.refused} refused by the tool, ` +
        `${tally.ran} ran safely, ${tally.hidden} files hidden from results (${tools}; seed ${SEED}, ${seconds} s)`,
    );
    const shown = failures.slice(0, 10).map((f) => `${f.tool} ${JSON.stringify(f.input).slice(0, 300)}: ${f.why.slice(0, 300)}`);
    expect(shown, `seed ${SEED}`).toEqual([]);
    expect(path.isAbsolute(fx.ws)).toBe(true);
  });
});
