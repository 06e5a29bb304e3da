import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sortNewestFirst } from '../../../../src/agent/tools/newestFirst';
import { makeWorkspace } from './toolTestContext';
import type { TempWorkspace } from './toolTestContext';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await makeWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

// One reference time, so equal ages are equal modification times.
const now = Date.now();

async function fileAged(rel: string, secondsAgo: number): Promise<string> {
  const p = await ws.write(rel, rel);
  const t = new Date(now - secondsAgo * 1000);
  await fs.utimes(p, t, t);
  return p;
}

describe('sortNewestFirst', () => {
  it('orders by modification time, newest first, ties by path, a vanished file last', async () => {
    const old = await fileAged('old.txt', 300);
    const newest = await fileAged('z/newest.txt', 10);
    const tieB = await fileAged('b.txt', 100);
    const tieA = await fileAged('a.txt', 100);
    const gone = path.join(ws.root, 'gone.txt');
    expect(await sortNewestFirst([gone, old, tieB, newest, tieA])).toEqual([newest, tieA, tieB, old, gone]);
  });

  it('sorts hundreds of paths as a plain sort by age and path does', async () => {
    const files: string[] = [];
    for (let i = 0; i < 600; i++) files.push(await fileAged(`d${i % 30}/f${i}.txt`, (i * 7919) % 500));
    const expected = [...files].sort((a, b) => {
      const ia = files.indexOf(a);
      const ib = files.indexOf(b);
      return ((ia * 7919) % 500) - ((ib * 7919) % 500) || (a < b ? -1 : a > b ? 1 : 0);
    });
    expect(await sortNewestFirst(files)).toEqual(expected);
  });

  it('stops stat-ing once the signal is aborted, and still returns every path', async () => {
    const files = [await fileAged('a.txt', 10), await fileAged('b.txt', 20)];
    const stop = new AbortController();
    stop.abort();
    expect((await sortNewestFirst(files, stop.signal)).sort()).toEqual([...files].sort());
  });
});
