import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_DEFAULT_LIMIT, READ_MAX_LINE_CHARS, createReadTool } from '../../../../src/agent/tools/readTool';
import type { ReadResponse } from '../../../../src/agent/tools/readTool';
import { makeContext, makeWorkspace } from './toolTestContext';
import type { TempWorkspace } from './toolTestContext';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});
const read = createReadTool();

describe('Read', () => {
  it('is read-only, needs no approval, and summarizes as the path', () => {
    expect(read.name).toBe('Read');
    expect(read.readOnly).toBe(true);
    expect(read.needsApproval).toBe(false);
    expect(read.summarize({ file_path: 'src/a.ts' })).toBe('src/a.ts');
    expect(read.jsonSchema).toMatchObject({ type: 'object', required: ['file_path'] });
  });

  it('returns cat -n style numbered lines and a Claude Code shaped response, counted as Claude counts (a final newline starts one more line)', async () => {
    const p = await ws.write('a.txt', 'one\ntwo\r\nthree\n');
    const r = await read.execute({ file_path: 'a.txt' }, makeContext(ws));
    expect(r.isError).toBe(false);
    expect(r.content).toBe('     1\tone\n     2\ttwo\n     3\tthree');
    expect(r.data).toEqual({
      type: 'text',
      file: { filePath: p, content: 'one\ntwo\nthree\n', numLines: 4, startLine: 1, totalLines: 4 },
    } satisfies ReadResponse);
    const q = await ws.write('b.txt', 'one\ntwo');
    const noNewline = await read.execute({ file_path: 'b.txt', offset: 2 }, makeContext(ws));
    expect(noNewline.data).toEqual({ type: 'text', file: { filePath: q, content: 'two', numLines: 1, startLine: 2, totalLines: 2 } } satisfies ReadResponse);
    const window = await read.execute({ file_path: 'a.txt', limit: 2 }, makeContext(ws));
    expect((window.data as ReadResponse).file).toMatchObject({ content: 'one\ntwo', numLines: 2, totalLines: 4 });
  });

  it('pages with offset (1-based) and limit, and says how to continue', async () => {
    await ws.write('n.txt', Array.from({ length: 10 }, (_, i) => `line${i + 1}`).join('\n'));
    const r = await read.execute({ file_path: 'n.txt', offset: 4, limit: 3 }, makeContext(ws));
    expect(r.content).toBe('     4\tline4\n     5\tline5\n     6\tline6\n\n(Showing lines 4-6 of 10; continue with offset 7.)');
    const tail = await read.execute({ file_path: 'n.txt', offset: 9 }, makeContext(ws));
    expect(tail.content).toBe('     9\tline9\n    10\tline10');
  });

  it('defaults to the first 2000 lines', async () => {
    await ws.write('big.txt', Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join('\n'));
    const r = await read.execute({ file_path: 'big.txt' }, makeContext(ws));
    expect((r.data as ReadResponse).file.numLines).toBe(READ_DEFAULT_LIMIT);
    expect(r.content).toContain(`  2000\tl2000\n\n(Showing lines 1-2000 of 2500; continue with offset 2001.)`);
  });

  it('truncates very long lines', async () => {
    await ws.write('long.txt', `${'x'.repeat(READ_MAX_LINE_CHARS + 50)}\nshort`);
    const r = await read.execute({ file_path: 'long.txt' }, makeContext(ws));
    expect(r.content).toContain(`… [line truncated, ${READ_MAX_LINE_CHARS + 50} characters]`);
    expect(r.content).toContain('1 line(s) longer than');
    expect(r.content).toContain('     2\tshort');
  });

  it('reports an offset past the end and an empty file without failing', async () => {
    await ws.write('s.txt', 'a\nb');
    const past = await read.execute({ file_path: 's.txt', offset: 50 }, makeContext(ws));
    expect(past).toMatchObject({ isError: false, content: `(${path.join(ws.root, 's.txt')} has 2 line(s); offset 50 is past the end.)` });
    await ws.write('e.txt', '');
    const empty = await read.execute({ file_path: 'e.txt' }, makeContext(ws));
    expect(empty.content).toContain('exists but is empty');
  });

  it('fails clearly for a missing file', async () => {
    const r = await read.execute({ file_path: 'nope.txt' }, makeContext(ws));
    expect(r).toEqual({ isError: true, content: `File does not exist: ${path.join(ws.root, 'nope.txt')}` });
  });

  it('refuses a directory with a hint to use Glob', async () => {
    await fs.mkdir(path.join(ws.root, 'src'));
    const r = await read.execute({ file_path: 'src' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toContain('is a directory');
    expect(r.content).toContain('Use Glob');
  });

  it('refuses binary files (NUL bytes, or a binary extension)', async () => {
    await ws.write('blob.dat', Buffer.from([0x68, 0x69, 0x00, 0x01, 0x02]));
    const r = await read.execute({ file_path: 'blob.dat' }, makeContext(ws));
    expect(r.isError).toBe(true);
    expect(r.content).toContain('is a binary file (5 bytes)');
    await ws.write('pic.png', 'not really png but named so');
    expect((await read.execute({ file_path: 'pic.png' }, makeContext(ws))).isError).toBe(true);
  });

  it('strips a UTF-8 BOM', async () => {
    await ws.write('bom.txt', '\uFEFFhello');
    expect((await read.execute({ file_path: 'bom.txt' }, makeContext(ws))).content).toBe('     1\thello');
  });

  it('refuses paths outside the workspace, including via a symlink', async () => {
    await fs.writeFile(path.join(ws.outside, 'secret.txt'), 'secret');
    const r = await read.execute({ file_path: path.join(ws.outside, 'secret.txt') }, makeContext(ws));
    expect(r).toEqual({ isError: true, content: `Path ${path.join(ws.outside, 'secret.txt')} is outside the workspace ${ws.root}.` });
    await fs.symlink(path.join(ws.outside, 'secret.txt'), path.join(ws.root, 'innocent.txt'));
    const viaLink = await read.execute({ file_path: 'innocent.txt' }, makeContext(ws));
    expect(viaLink.isError).toBe(true);
    expect(viaLink.content).not.toContain('     1\tsecret');
  });

  it('reads outside the workspace when approved', async () => {
    await fs.writeFile(path.join(ws.outside, 'ok.txt'), 'fine');
    const r = await read.execute({ file_path: path.join(ws.outside, 'ok.txt') }, makeContext(ws, { allowOutsideWorkspace: () => true }));
    expect(r).toMatchObject({ isError: false, content: '     1\tfine' });
  });

  it('does nothing when already aborted', async () => {
    await ws.write('a.txt', 'x');
    const ac = new AbortController();
    ac.abort();
    const r = await read.execute({ file_path: 'a.txt' }, makeContext(ws, { signal: ac.signal }));
    expect(r).toEqual({ isError: true, content: 'Read was interrupted before it started.' });
  });
});

describe('Read output cap', () => {
  it('stops before the character cap and says where to continue', async () => {
    const line = 'z'.repeat(1500);
    await ws.write('wide.txt', Array.from({ length: 200 }, () => line).join('\n'));
    const r = await read.execute({ file_path: 'wide.txt' }, makeContext(ws));
    const shown = (r.data as ReadResponse).file.numLines;
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(200);
    expect(r.content).toContain(`Output stopped at line ${shown} to stay under`);
    expect(r.content).toContain(`continue with offset ${shown + 1}`);
  });
});
