import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEditTool } from '../../../../src/agent/tools/editTool';
import { makeContext, makeWorkspace } from './toolTestContext';
import type { TempWorkspace } from './toolTestContext';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});
const edit = createEditTool();

describe('Edit', () => {
  it('needs approval and summarizes as the path', () => {
    expect(edit).toMatchObject({ name: 'Edit', readOnly: false, needsApproval: true });
    expect(edit.summarize({ file_path: 'a.ts', old_string: 'a', new_string: 'b' })).toBe('a.ts');
  });

  it('replaces a unique match and shows the result around it', async () => {
    const p = await ws.write('a.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const r = await edit.execute({ file_path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 20;' }, makeContext(ws));
    expect(r.isError).toBe(false);
    expect(await fs.readFile(p, 'utf8')).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
    expect(r.content).toContain(`The file ${p} has been updated (1 replacement).`);
    expect(r.content).toContain('     2\tconst b = 20;');
    // Claude Code's Edit tool_response, key for key, with the diff as `diff`'s structuredPatch hunks.
    expect(r.data).toEqual({
      filePath: p,
      oldString: 'const b = 2;',
      newString: 'const b = 20;',
      originalFile: 'const a = 1;\nconst b = 2;\nconst c = 3;\n',
      structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' const a = 1;', '-const b = 2;', '+const b = 20;', ' const c = 3;'] }],
      userModified: false,
      replaceAll: false,
    });
  });

  it('fails clearly when old_string is not found, leaving the file alone', async () => {
    const p = await ws.write('a.ts', 'hello world\n');
    const r = await edit.execute({ file_path: 'a.ts', old_string: 'goodbye', new_string: 'x' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toBe(
      `old_string was not found in ${p}. Read the file to see its current content; old_string must match exactly, including whitespace and indentation.`,
    );
    expect(await fs.readFile(p, 'utf8')).toBe('hello world\n');
  });

  it('hints at whitespace when only the trimmed text matches', async () => {
    await ws.write('a.ts', 'if (x) {\n    go();\n}\n');
    const r = await edit.execute({ file_path: 'a.ts', old_string: '  go();  \n\n', new_string: 'stop();' }, makeContext(ws));
    expect(r.content).toContain('different surrounding whitespace');
  });

  it('fails when old_string is not unique, unless replace_all', async () => {
    const p = await ws.write('a.ts', 'foo\nbar foo\nfoo\n');
    const r = await edit.execute({ file_path: 'a.ts', old_string: 'foo', new_string: 'baz' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toContain('old_string is not unique (3 matches); add context or set replace_all');
    expect(await fs.readFile(p, 'utf8')).toBe('foo\nbar foo\nfoo\n');

    const all = await edit.execute({ file_path: 'a.ts', old_string: 'foo', new_string: 'baz', replace_all: true }, makeContext(ws));
    expect(all.isError).toBe(false);
    expect(all.content).toContain('(3 replacements)');
    expect(await fs.readFile(p, 'utf8')).toBe('baz\nbar baz\nbaz\n');
  });

  it('refuses old_string === new_string', async () => {
    await ws.write('a.ts', 'x');
    const r = await edit.execute({ file_path: 'a.ts', old_string: 'x', new_string: 'x' }, makeContext(ws));
    expect(r).toMatchObject({ isError: true });
    expect(r.content).toContain('identical');
  });

  it('keeps $ patterns in new_string literal', async () => {
    const p = await ws.write('a.ts', 'price = X;\n');
    await edit.execute({ file_path: 'a.ts', old_string: 'X', new_string: "'$&$1$$'" }, makeContext(ws));
    expect(await fs.readFile(p, 'utf8')).toBe("price = '$&$1$$';\n");
  });

  it('matches LF old_string in a CRLF file and keeps CRLF', async () => {
    const p = await ws.write('win.txt', 'a\r\nb\r\nc\r\n');
    const r = await edit.execute({ file_path: 'win.txt', old_string: 'a\nb', new_string: 'A\nB' }, makeContext(ws));
    expect(r.isError).toBe(false);
    expect(await fs.readFile(p, 'utf8')).toBe('A\r\nB\r\nc\r\n');
  });

  it('fails for a missing file, but creates one with an empty old_string', async () => {
    const missing = await edit.execute({ file_path: 'new/x.ts', old_string: 'a', new_string: 'b' }, makeContext(ws));
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain(`File does not exist: ${path.join(ws.root, 'new/x.ts')}`);
    const created = await edit.execute({ file_path: 'new/x.ts', old_string: '', new_string: 'export {};\n' }, makeContext(ws));
    expect(created.isError).toBe(false);
    expect(await fs.readFile(path.join(ws.root, 'new/x.ts'), 'utf8')).toBe('export {};\n');
    const again = await edit.execute({ file_path: 'new/x.ts', old_string: '', new_string: 'y' }, makeContext(ws));
    expect(again.isError).toBe(true);
    expect(again.content).toContain('already has content');
  });

  it('refuses directories, binary files and paths outside the workspace', async () => {
    await fs.mkdir(path.join(ws.root, 'd'));
    expect((await edit.execute({ file_path: 'd', old_string: 'a', new_string: 'b' }, makeContext(ws))).content).toContain('is a directory');
    await ws.write('b.bin', Buffer.from([0x61, 0, 0x62]));
    expect((await edit.execute({ file_path: 'b.bin', old_string: 'a', new_string: 'b' }, makeContext(ws))).content).toContain('binary');
    const outsideFile = path.join(ws.outside, 'o.txt');
    await fs.writeFile(outsideFile, 'a');
    await fs.symlink(outsideFile, path.join(ws.root, 'o.txt'));
    const r = await edit.execute({ file_path: 'o.txt', old_string: 'a', new_string: 'b' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toContain('outside the workspace');
    expect(await fs.readFile(outsideFile, 'utf8')).toBe('a');
  });
});
