import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool } from '../../../src/agent/tools/grepTool';
import { createReadTool } from '../../../src/agent/tools/readTool';
import { createTodoStore } from '../../../src/agent/tools/todoStore';
import type { ToolContext } from '../../../src/agent/tools/tool';
import { boundaryApprovalKey, decideWorkspaceBoundary } from '../../../src/agent/workspaceBoundary';

// Issue 25 §3: a repository's `.code-workspace` whose first folder is `..` made $HOME the
// agent's project, so Read and Grep returned ~/.ssh without asking. Real folders, a real
// workspace file and symlink, and the real Read/Grep tools on the root that is decided.

let base = '';
let home = '';
let repo = '';
let file = '';
beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'hookwise-boundary-')));
  home = path.join(base, 'home');
  repo = path.join(home, 'repo');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_rsa'), '-----BEGIN PRIVATE KEY----- home-secret');
  await fs.mkdir(path.join(repo, 'src'), { recursive: true });
  await fs.writeFile(path.join(repo, 'src', 'a.ts'), 'export const a = 1;');
  file = path.join(repo, 'evil.code-workspace');
  await fs.writeFile(file, JSON.stringify({ folders: [{ path: '..' }, { path: '.' }] }));
});
afterEach(() => fs.rm(base, { recursive: true, force: true }));

const ctx = (root: string): ToolContext => ({
  cwd: root,
  workspaceRoot: root,
  signal: new AbortController().signal,
  sessionId: 's',
  agentId: 'main',
  todos: createTodoStore(),
});

describe('the agent root when a .code-workspace file defines the workspace', () => {
  it("a first folder '..' does not become the project: the root is the first folder inside the file's folder, and Read/Grep of ~/.ssh are refused", async () => {
    const b = decideWorkspaceBoundary({ workspaceFile: file, folders: [home, repo], homeDir: home });
    expect(b).toEqual({ projectDir: repo, workspaceFile: file, outsideFolders: [home], approved: false });
    const read = await createReadTool().execute({ file_path: '../.ssh/id_rsa' }, ctx(b.projectDir));
    expect(read.isError).toBe(true);
    expect(read.content).toContain('outside the workspace');
    const grep = await createGrepTool().execute({ pattern: 'PRIVATE', path: '..', output_mode: 'content' }, ctx(b.projectDir));
    expect(grep.content).not.toContain('home-secret');
  });

  it("only '..' listed: the root is the workspace file's own folder", () => {
    expect(decideWorkspaceBoundary({ workspaceFile: file, folders: [home], homeDir: home }).projectDir).toBe(repo);
  });

  it('a folder listed inside that is a symlink leading out counts as outside', async () => {
    await fs.symlink(home, path.join(repo, 'link'));
    const b = decideWorkspaceBoundary({ workspaceFile: file, folders: [path.join(repo, 'link')], homeDir: home });
    expect(b.projectDir).toBe(repo);
    expect(b.outsideFolders).toEqual([path.join(repo, 'link')]);
  });

  it('accepted for exactly this file and folder list, the first folder is the root; a changed list is not accepted', () => {
    const key = boundaryApprovalKey(file, [home]);
    const accepted = decideWorkspaceBoundary({ workspaceFile: file, folders: [home, repo], homeDir: home }, (k) => k === key);
    expect(accepted).toMatchObject({ projectDir: home, approved: true });
    const other = decideWorkspaceBoundary({ workspaceFile: file, folders: [base, repo], homeDir: home }, (k) => k === key);
    expect(other).toMatchObject({ projectDir: repo, approved: false, outsideFolders: [base] });
  });

  it("folders inside the file's folder, a folder the person opened, and no folder at all keep their old roots", () => {
    expect(decideWorkspaceBoundary({ workspaceFile: file, folders: [path.join(repo, 'src'), repo], homeDir: home })).toMatchObject({
      projectDir: path.join(repo, 'src'),
      outsideFolders: [],
    });
    expect(decideWorkspaceBoundary({ folders: [home], homeDir: home }).projectDir).toBe(home);
    expect(decideWorkspaceBoundary({ folders: [], homeDir: home }).projectDir).toBe(home);
  });
});
