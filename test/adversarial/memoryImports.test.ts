import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigPermissionRules } from '../../src/permissions/configPermissionRules';
import { LazyMemory } from '../../src/agent/memory/lazyMemory';
import { MemoryAccess } from '../../src/agent/memory/memoryAccess';
import { loadMemory } from '../../src/agent/memory/memoryFiles';
import type { PermissionRuleEntry } from '../../src/permissions/permissionRules';
import { parsePermissionRule } from '../../src/permissions/permissionRules';
import { DENIED_MARKER, DENY_RULES, MARKERS, makePathEscapeFixture } from './support/pathEscapeFixture';
import type { PathEscapeFixture } from './support/pathEscapeFixture';
import { seededRandom } from './support/seededRandom';

/**
 * Memory imports and memory files as a hostile repository writes them (docs/security.md): a
 * generated `@path` (home, absolute, `..`, through the fixture's symlinks out, into Read-denied
 * files) placed in every memory location — CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md,
 * AGENTS.md, a `paths:` rule, a nested CLAUDE.md, the end of an import chain — and memory files
 * that are themselves links out. Each case loads as a session does (start, then the nested load
 * a file tool's touch makes), under three answers: headless (no one to ask), Restricted Mode
 * (an approver that would say yes is never asked), and a person who says yes. Safe outcome: no
 * outside or home marker in what loads unless a person said yes, never a Read-denied marker,
 * and every file left out is named in a note for the model.
 */

const SEED = Number(process.env.ADVERSARIAL_SEED ?? 20261127);
const RANDOM_REFS = 220;

type Answer = 'headless' | 'restricted' | 'approved';
const ANSWERS: readonly Answer[] = ['headless', 'restricted', 'approved'];

/** Where a generated import line is written; `touch` is the file a tool works on after the start (nested loads). */
interface Placement {
  readonly name: string;
  readonly files: (ref: string) => Record<string, string>;
  readonly touch?: string;
}

const PLACEMENTS: readonly Placement[] = [
  { name: 'CLAUDE.md', files: (ref) => ({ 'CLAUDE.md': `Rules. @${ref}` }) },
  { name: '.claude/CLAUDE.md', files: (ref) => ({ '.claude/CLAUDE.md': `Rules.\n@${ref}\n` }) },
  { name: 'CLAUDE.local.md', files: (ref) => ({ 'CLAUDE.local.md': `- see @${ref}.` }) },
  { name: 'AGENTS.md', files: (ref) => ({ 'AGENTS.md': `Agents: @${ref}` }) },
  { name: 'paths: rule', files: (ref) => ({ '.claude/rules/gen.md': `---\npaths: "src/**"\n---\nTS rule @${ref}` }), touch: 'src/app.ts' },
  { name: 'nested CLAUDE.md', files: (ref) => ({ 'sub/CLAUDE.md': `Sub rules @${ref}` }), touch: 'sub/notes.md' },
  {
    name: 'import chain',
    files: (ref) => ({ 'CLAUDE.md': 'Root @sub/hop1.md', 'sub/hop1.md': 'hop1 @hop2.md', 'sub/hop2.md': `hop2 @${ref}` }),
  },
];

/** Memory files that are links (relative to the workspace) — each to a target outside, into a denied file, or along a chain. */
const LINKED_MEMORY = ['CLAUDE.local.md', '.claude/CLAUDE.md', 'CLAUDE.md', '.claude/rules/gen.md', 'sub/CLAUDE.md', 'AGENTS.md'];

let fx: PathEscapeFixture;
let rules: ConfigPermissionRules;
const failures: string[] = [];
const tally = { cases: 0, loadedInside: 0, leftOut: 0, approvedOutside: 0 };

beforeAll(async () => {
  fx = await makePathEscapeFixture();
  const entries: PermissionRuleEntry[] = DENY_RULES.map((text) => {
    const parsed = parsePermissionRule(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return { behavior: 'deny', rule: parsed.rule, source: { kind: 'code', label: 'adversarial' } };
  });
  rules = new ConfigPermissionRules(entries, { projectRoot: fx.ws, homeDir: fx.home });
  await fs.mkdir(path.join(fx.ws, '.claude', 'rules'), { recursive: true });
});

afterAll(async () => {
  await fx?.cleanup();
});

function access(answer: Answer): MemoryAccess {
  return new MemoryAccess({
    projectDir: fx.ws,
    cwd: fx.ws,
    trusted: answer !== 'restricted',
    readDeniedBy: (abs, real, cwd) => rules.readDeniedBy(abs, real, cwd),
    // Restricted Mode gets an approver that would say yes: it must never be asked.
    ...(answer === 'headless'
      ? {}
      : {
          approve: () => {
            if (answer === 'restricted') failures.push('an approver was asked in Restricted Mode');
            return Promise.resolve(true);
          },
        }),
  });
}

/** Loads like a session: the start, then the nested load of `touch`. Returns the text that loaded and the notes. */
async function load(answer: Answer, touch: string | undefined): Promise<{ text: string; notes: string[] }> {
  const memoryAccess = access(answer);
  const start = await loadMemory({ cwd: fx.ws, homeDir: fx.home, access: memoryAccess });
  const lazy = new LazyMemory(fx.ws, fx.ws, memoryAccess);
  lazy.reset(start);
  const touched = touch ? await lazy.touch(touch) : { files: [], notes: [] };
  const files = [...start.files, ...touched.files];
  return { text: files.map((f) => f.content).join('\n'), notes: [...(start.notes ?? []), ...touched.notes] };
}

/** Writes the case's files, runs every answer, checks the outcome, removes the files. */
async function runCase(label: string, files: Record<string, string>, links: Record<string, string>, touch: string | undefined): Promise<void> {
  const written = [...Object.keys(files), ...Object.keys(links)].map((rel) => path.join(fx.ws, rel));
  try {
    for (const [rel, content] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(fx.ws, rel)), { recursive: true });
      await fs.writeFile(path.join(fx.ws, rel), content);
    }
    for (const [rel, target] of Object.entries(links)) await fs.symlink(target, path.join(fx.ws, rel));
    const results = new Map<Answer, { text: string; notes: string[] }>();
    for (const answer of ANSWERS) results.set(answer, await load(answer, touch));
    // What a yes lets in is exactly what the other answers must leave out, each with a note.
    const reachable = MARKERS.filter((m) => m !== DENIED_MARKER && results.get('approved')?.text.includes(m));
    for (const answer of ANSWERS) {
      tally.cases++;
      const { text, notes } = results.get(answer) ?? { text: '', notes: [] };
      const fail = (why: string): void => void failures.push(`${label} [${answer}]: ${why}`);
      for (const marker of MARKERS) {
        if (!text.includes(marker)) continue;
        if (answer === 'approved' && marker !== DENIED_MARKER) tally.approvedOutside++;
        else fail(`loaded ${marker}`);
      }
      for (const note of notes) for (const marker of MARKERS) if (note.includes(marker)) fail(`a note carries ${marker}`);
      if (answer !== 'approved' && reachable.length > 0) {
        if (notes.length === 0) fail('left a file out without a note for the model');
        else tally.leftOut++;
      }
      if (text.includes('notes\n') || text.includes('export const app')) tally.loadedInside++;
    }
  } finally {
    await Promise.all(written.map((p) => fs.rm(p, { force: true })));
  }
}

const rnd = seededRandom(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;

/** The refs every placement is tried with: the shapes the review found, and in-project controls. */
function fixedRefs(): string[] {
  const { ws, outside, base } = fx;
  return [
    '~/.bashrc',
    `${outside}/secret.txt`,
    '../outside/secret.txt',
    'sub/../../outside/secret.txt',
    'l_file',
    'l_dir/secret.txt',
    'l_rel_dir/deep/dir/secret.txt',
    'c1',
    'd1',
    'l_denied',
    'inner/secret.env',
    'keys/server.key',
    'l_keys/server.key',
    'l_home/.bashrc',
    'l_sibling/secret.txt',
    `${base}/ws-sibling/secret.txt`,
    'l_parent/outside/secret.txt',
    `${ws}/l_file`,
    // Controls: inside the project, not denied: these load.
    'sub/notes.md',
    `${ws}/src/app.ts`,
  ];
}

/** A random ref: a prefix and up to four of the fixture's segments (the import grammar's characters only). */
function randomRef(): string {
  const prefixes = ['', './', '../', '../../', '~/', `${fx.ws}/`, `${fx.base}/`, `${fx.outside}/`, 'sub/../', 'sub/l_up/'];
  const segments = fx.segments.filter((s) => /^[\w.-]+$/.test(s) && s !== '.');
  const n = 1 + Math.floor(rnd() * 4);
  return pick(prefixes) + Array.from({ length: n }, () => pick(segments)).join('/');
}

it(`[adversarial] memory imports: generated @paths in every memory location and memory files linked out`, { timeout: 120_000 }, async () => {
  const refs = [...fixedRefs(), ...Array.from({ length: RANDOM_REFS }, randomRef)];
  for (const ref of refs) {
    const placement = pick(PLACEMENTS);
    await runCase(`${placement.name} @${ref}`, placement.files(ref), {}, placement.touch);
  }
  // Every fixed shape in every placement too (the random pass above spreads them thin).
  for (const ref of fixedRefs().slice(0, 6))
    for (const placement of PLACEMENTS) await runCase(`${placement.name} @${ref}`, placement.files(ref), {}, placement.touch);
  const targets = [
    path.join(fx.outside, 'secret.txt'),
    '../outside/secret.txt',
    path.join(fx.home, '.bashrc'),
    path.join(fx.ws, 'inner', 'secret.env'),
    path.join(fx.ws, 'l_file'),
    path.join(fx.ws, 'd1'),
    path.join(fx.base, 'ws-sibling', 'secret.txt'),
  ];
  for (const rel of LINKED_MEMORY)
    for (const target of targets) {
      // A relative target is relative to the link's folder: one level deeper needs one more `..`.
      const depth = rel.split('/').length - 1;
      const t = path.isAbsolute(target) ? target : `${'../'.repeat(depth)}${target}`;
      const touch = rel.startsWith('sub/') ? 'sub/notes.md' : rel.includes('rules') ? 'src/app.ts' : undefined;
      await runCase(`${rel} -> ${t}`, {}, { [rel]: t }, touch);
    }
  console.log(
    `[adversarial] memory-imports: ${tally.cases} cases (${refs.length} refs x placements, ${LINKED_MEMORY.length * targets.length} links, x${ANSWERS.length} answers), ${failures.length} failures; ` +
      `${tally.leftOut} left out with a note, ${tally.approvedOutside} outside files loaded after a yes, ${tally.loadedInside} loaded an in-project control`,
  );
  expect(failures).toEqual([]);
  // The generator must reach both sides: files left out, in-project files loaded, and a yes that works.
  expect(tally.leftOut).toBeGreaterThan(50);
  expect(tally.loadedInside).toBeGreaterThan(0);
  expect(tally.approvedOutside).toBeGreaterThan(10);
});
