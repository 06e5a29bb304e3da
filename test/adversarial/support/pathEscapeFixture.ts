import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Text that must never appear in a file tool's output: it lives only outside or in denied files. */
export const OUTSIDE_MARKER = 'OUTSIDE_MARKER_b7f3';
export const DENIED_MARKER = 'DENIED_MARKER_91ce';
export const HOME_MARKER = 'HOME_MARKER_40aa';
export const MARKERS = [OUTSIDE_MARKER, DENIED_MARKER, HOME_MARKER] as const;

/** The permission rules every case runs under (as a project's settings would give them). */
export const DENY_RULES = ['Read(inner/secret.env)', 'Read(inner/clé.env)', 'Read(**/*.key)', 'Edit(inner/**)'] as const;

/**
 * A real hostile layout: `base/ws` (the workspace), `base/outside` and `base/home` (a fake
 * $HOME) holding marker files, a denied directory `ws/inner`, and symlinks out of the
 * workspace of every shape: to a file, to a directory, to a denied file and directory,
 * chains, a link to the parent, a loop, a dangling link whose target is outside.
 */
export interface PathEscapeFixture {
  readonly base: string;
  readonly ws: string;
  readonly outside: string;
  readonly home: string;
  /** Path segments random paths are built from (names of the links, `..`, markers' names…). */
  readonly segments: readonly string[];
  /** Every file and its content under the directories that must never change. */
  snapshot(): Promise<Map<string, string>>;
  cleanup(): Promise<void>;
}

export async function makePathEscapeFixture(): Promise<PathEscapeFixture> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'hookwise-pathesc-')));
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  const home = path.join(base, 'home');
  const write = async (p: string, content: string): Promise<void> => {
    await fs.mkdir(path.dirname(p), { recursive: true });
    await fs.writeFile(p, content);
  };
  await write(path.join(outside, 'secret.txt'), `${OUTSIDE_MARKER}\n`);
  await write(path.join(outside, 'deep', 'dir', 'secret.txt'), `x ${OUTSIDE_MARKER}\n`);
  await write(path.join(home, '.bashrc'), `${HOME_MARKER}\n`);
  await write(path.join(ws, 'inner', 'secret.env'), `TOKEN=${DENIED_MARKER}\n`);
  await write(path.join(ws, 'inner', 'clé.env'.normalize('NFC')), `${DENIED_MARKER}\n`);
  await write(path.join(ws, 'keys', 'server.key'), `${DENIED_MARKER}\n`);
  await write(path.join(ws, 'src', 'app.ts'), 'export const app = 1;\n');
  await write(path.join(ws, 'sub', 'notes.md'), 'notes\n');
  await write(path.join(base, 'ws-sibling', 'secret.txt'), `${OUTSIDE_MARKER}\n`);
  const link = (target: string, at: string): Promise<void> => fs.symlink(target, path.join(ws, at));
  await link(path.join(outside, 'secret.txt'), 'l_file');
  await link(outside, 'l_dir');
  await link('../outside', 'l_rel_dir');
  await link(path.join(ws, 'inner', 'secret.env'), 'l_denied');
  await link('inner/secret.env', 'l_denied_rel');
  await link(path.join(ws, 'inner'), 'l_innerdir');
  await link(path.join(ws, 'keys'), 'l_keys');
  await link('c2', 'c1');
  await link('c3', 'c2');
  await link('../outside/secret.txt', 'c3');
  await link('d2', 'd1');
  await link('l_innerdir/secret.env', 'd2');
  await link('../..', 'sub/l_up');
  await link('..', 'l_parent');
  await link('../ws-sibling', 'l_sibling');
  await link(path.join(outside, 'created-through-link.txt'), 'l_dangling');
  await link(path.join(outside, 'newdir'), 'l_dangling_dir');
  await link('loop2', 'loop1');
  await link('loop1', 'loop2');
  await link(home, 'l_home');
  const segments = [
    '..',
    '.',
    '',
    'inner',
    'sub',
    'src',
    'keys',
    'outside',
    'ws',
    'home',
    'deep',
    'dir',
    'secret.env',
    'secret.txt',
    'server.key',
    'clé.env'.normalize('NFC'),
    'clé.env'.normalize('NFD'),
    'INNER',
    'Secret.env',
    '.bashrc',
    '~',
    'l_file',
    'l_dir',
    'l_rel_dir',
    'l_denied',
    'l_denied_rel',
    'l_innerdir',
    'l_keys',
    'c1',
    'd1',
    'l_up',
    'l_parent',
    'l_sibling',
    'ws-sibling',
    'l_dangling',
    'l_dangling_dir',
    'loop1',
    'l_home',
    'new.txt',
  ];
  // ws/keys is only Read-denied: writing there is allowed, so it is not watched.
  const watched = [outside, home, path.join(ws, 'inner'), path.join(base, 'ws-sibling')];
  return {
    base,
    ws,
    outside,
    home,
    segments,
    async snapshot() {
      const out = new Map<string, string>();
      for (const dir of watched) await collect(dir, out);
      // base itself: nothing may be created next to the workspace.
      for (const name of await fs.readdir(base)) out.set(path.join(base, name), '<entry>');
      return out;
    },
    cleanup: () => fs.rm(base, { recursive: true, force: true }),
  };
}

async function collect(dir: string, out: Map<string, string>): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    out.set(dir, '<missing>');
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await collect(p, out);
    else if (e.isSymbolicLink()) out.set(p, `-> ${await fs.readlink(p)}`);
    else out.set(p, await fs.readFile(p, 'utf8'));
  }
}
