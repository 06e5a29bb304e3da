import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isInsideDir, realpathLenient, resolveWorkspacePath } from '../../../../src/agent/tools/workspacePaths';
import { makeWorkspace } from './toolTestContext';
import type { TempWorkspace } from './toolTestContext';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

const scope = (extra: object = {}) => ({ cwd: ws.root, workspaceRoot: ws.root, ...extra });

describe('resolveWorkspacePath', () => {
  it('resolves relative paths against cwd and accepts paths inside', async () => {
    await ws.write('src/a.ts', 'x');
    const r = await resolveWorkspacePath('src/a.ts', scope({ cwd: path.join(ws.root, '.') }));
    expect(r).toEqual({ ok: true, absPath: path.join(ws.root, 'src/a.ts'), realPath: path.join(ws.root, 'src/a.ts'), outside: false });
    const sub = await resolveWorkspacePath('a.ts', scope({ cwd: path.join(ws.root, 'src') }));
    expect(sub.ok && sub.absPath).toBe(path.join(ws.root, 'src/a.ts'));
  });

  it('accepts the root itself and new files that do not exist yet', async () => {
    expect((await resolveWorkspacePath('.', scope())).ok).toBe(true);
    const r = await resolveWorkspacePath('new/dir/file.txt', scope());
    expect(r.ok && r.realPath).toBe(path.join(ws.root, 'new/dir/file.txt'));
  });

  it('treats a relative cwd as relative to the workspace root', async () => {
    const r = await resolveWorkspacePath('b.txt', { cwd: 'sub', workspaceRoot: ws.root });
    expect(r.ok && r.absPath).toBe(path.join(ws.root, 'sub/b.txt'));
  });

  it('refuses .. escapes with the path and the workspace in the message', async () => {
    const r = await resolveWorkspacePath('../outside/secret.txt', scope());
    expect(r).toEqual({ ok: false, error: `Path ${path.join(ws.outside, 'secret.txt')} is outside the workspace ${ws.root}.` });
  });

  it('refuses absolute paths outside, and a sibling whose name merely starts with the root', async () => {
    const r = await resolveWorkspacePath('/etc/passwd', scope());
    expect(r).toEqual({ ok: false, error: `Path /etc/passwd is outside the workspace ${ws.root}.` });
    await fs.mkdir(`${ws.root}-evil`);
    expect((await resolveWorkspacePath(`${ws.root}-evil/x`, scope())).ok).toBe(false);
  });

  it('expands ~ to the home directory (outside the workspace)', async () => {
    const r = await resolveWorkspacePath('~/.ssh/id_rsa', scope());
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(path.join(os.homedir(), '.ssh/id_rsa'));
  });

  it('refuses a symlinked directory pointing out, naming where it resolves', async () => {
    await fs.writeFile(path.join(ws.outside, 'secret.txt'), 's');
    await fs.symlink(ws.outside, path.join(ws.root, 'linkdir'));
    const r = await resolveWorkspacePath('linkdir/secret.txt', scope());
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toBe(
        `Path ${path.join(ws.root, 'linkdir/secret.txt')} is outside the workspace ${ws.root} (it resolves to ${path.join(ws.outside, 'secret.txt')} through a symlink).`,
      );
    }
  });

  it('refuses a symlinked file pointing out', async () => {
    await fs.writeFile(path.join(ws.outside, 'secret.txt'), 's');
    await fs.symlink(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'link.txt'));
    expect((await resolveWorkspacePath('link.txt', scope())).ok).toBe(false);
  });

  it('refuses a new file inside a symlinked directory that points out', async () => {
    await fs.symlink(ws.outside, path.join(ws.root, 'linkdir'));
    const r = await resolveWorkspacePath('linkdir/deeper/new.txt', scope());
    expect(r.ok).toBe(false);
  });

  it('refuses a dangling symlink whose (not yet existing) target is outside', async () => {
    await fs.symlink(path.join(ws.outside, 'will-be-created.txt'), path.join(ws.root, 'dangling.txt'));
    const r = await resolveWorkspacePath('dangling.txt', scope());
    expect(r.ok).toBe(false);
  });

  it('accepts symlinks that stay inside, and a workspace root reached through a symlink', async () => {
    await ws.write('real/file.txt', 'x');
    await fs.symlink(path.join(ws.root, 'real'), path.join(ws.root, 'alias'));
    expect((await resolveWorkspacePath('alias/file.txt', scope())).ok).toBe(true);
    const rootLink = path.join(ws.base, 'rootlink');
    await fs.symlink(ws.root, rootLink);
    const r = await resolveWorkspacePath('real/file.txt', { cwd: rootLink, workspaceRoot: rootLink });
    expect(r.ok).toBe(true);
  });

  it('lets allowOutsideWorkspace approve, calling it with the real path', async () => {
    await fs.symlink(ws.outside, path.join(ws.root, 'linkdir'));
    const allow = vi.fn(() => true);
    const r = await resolveWorkspacePath('linkdir/x.txt', scope({ allowOutsideWorkspace: allow }));
    expect(r).toEqual({ ok: true, absPath: path.join(ws.root, 'linkdir/x.txt'), realPath: path.join(ws.outside, 'x.txt'), outside: true });
    expect(allow).toHaveBeenCalledWith(path.join(ws.outside, 'x.txt'));
  });

  it('says so when the approval is refused, throws, or is async false', async () => {
    for (const allow of [
      () => false,
      () => {
        throw new Error('boom');
      },
      async () => false,
    ]) {
      const r = await resolveWorkspacePath('/etc/hosts', scope({ allowOutsideWorkspace: allow }));
      expect(r).toEqual({ ok: false, error: `Path /etc/hosts is outside the workspace ${ws.root}, and access to it was not approved.` });
    }
  });

  it('rejects empty paths and NUL characters', async () => {
    expect(await resolveWorkspacePath('  ', scope())).toEqual({ ok: false, error: 'Path is empty.' });
    expect((await resolveWorkspacePath('a\0b', scope())).ok).toBe(false);
  });
});

describe('realpathLenient / isInsideDir', () => {
  it('follows symlink chains and survives loops', async () => {
    await fs.symlink(path.join(ws.root, 'b'), path.join(ws.root, 'a'));
    await fs.symlink(path.join(ws.root, 'a'), path.join(ws.root, 'b'));
    const p = await realpathLenient(path.join(ws.root, 'a', 'x'));
    expect(typeof p).toBe('string');
    await fs.symlink(path.join(ws.root, 'c'), path.join(ws.root, 'chain'));
    await fs.symlink(ws.outside, path.join(ws.root, 'c'));
    expect(await realpathLenient(path.join(ws.root, 'chain', 'n.txt'))).toBe(path.join(ws.outside, 'n.txt'));
  });

  it('isInsideDir is exact about boundaries', () => {
    expect(isInsideDir('/a/b', '/a/b')).toBe(true);
    expect(isInsideDir('/a/b', '/a/b/c')).toBe(true);
    expect(isInsideDir('/a/b', '/a/bc')).toBe(false);
    expect(isInsideDir('/a/b', '/a')).toBe(false);
    expect(isInsideDir('/a/b', '/a/b/..foo')).toBe(true);
  });
});
