import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWriteTool } from '../../../../src/agent/tools/writeTool';
import { makeContext, makeWorkspace } from './toolTestContext';
import type { TempWorkspace } from './toolTestContext';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});
const write = createWriteTool();

describe('Write', () => {
  it('needs approval and is not read-only', () => {
    expect(write).toMatchObject({ name: 'Write', readOnly: false, needsApproval: true });
  });

  it('creates a file and its missing parent directories', async () => {
    const r = await write.execute({ file_path: 'a/b/c.txt', content: 'hi\nthere\n' }, makeContext(ws));
    const p = path.join(ws.root, 'a/b/c.txt');
    expect(r).toEqual({
      isError: false,
      content: `File created successfully at: ${p} (2 line(s)).`,
      data: { type: 'create', filePath: p, content: 'hi\nthere\n', structuredPatch: [], originalFile: null, userModified: false },
    });
    expect(await fs.readFile(p, 'utf8')).toBe('hi\nthere\n');
  });

  it('overwrites an existing file and says so', async () => {
    const p = await ws.write('x.txt', 'old');
    const r = await write.execute({ file_path: p, content: 'new' }, makeContext(ws));
    expect(r.data).toEqual({
      type: 'update',
      filePath: p,
      content: 'new',
      structuredPatch: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-old', '+new'] }],
      originalFile: 'old',
      userModified: false,
    });
    expect(r.content).toContain('has been overwritten');
    expect(await fs.readFile(p, 'utf8')).toBe('new');
  });

  it('refuses a directory, and a parent that is a file', async () => {
    await fs.mkdir(path.join(ws.root, 'dir'));
    expect((await write.execute({ file_path: 'dir', content: 'x' }, makeContext(ws))).content).toContain('is a directory');
    await ws.write('file', 'x');
    const r = await write.execute({ file_path: 'file/child.txt', content: 'x' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/is a file, not a directory/);
  });

  it('refuses to write outside the workspace, including into a symlinked directory', async () => {
    const r = await write.execute({ file_path: '../outside/evil.txt', content: 'x' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toContain('is outside the workspace');
    await fs.symlink(ws.outside, path.join(ws.root, 'linkdir'));
    const viaLink = await write.execute({ file_path: 'linkdir/new/evil.txt', content: 'x' }, makeContext(ws));
    expect(viaLink.isError).toBe(true);
    await expect(fs.readdir(ws.outside)).resolves.toEqual([]);
  });

  it('does not write through a dangling symlink pointing out', async () => {
    await fs.symlink(path.join(ws.outside, 'target.txt'), path.join(ws.root, 'dangling.txt'));
    const r = await write.execute({ file_path: 'dangling.txt', content: 'x' }, makeContext(ws));
    expect(r.isError).toBe(true);
    await expect(fs.readdir(ws.outside)).resolves.toEqual([]);
  });
});
