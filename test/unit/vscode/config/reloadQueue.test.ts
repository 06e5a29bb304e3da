import { describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { ReloadQueue } from '../../../../src/vscode/config/reloadQueue';

/** A queue whose loads wait until released, recording what was applied. */
function queue(debounceMs = 5) {
  const applied: number[] = [];
  const releases: (() => void)[] = [];
  let loads = 0;
  const log = { error: () => undefined } as unknown as vscode.LogOutputChannel;
  const q = new ReloadQueue<number, number>({
    load: async () => {
      const n = ++loads;
      await new Promise<void>((resolve) => releases.push(resolve));
      return n;
    },
    apply: async (n) => {
      applied.push(n);
    },
    latest: () => applied.at(-1),
    log,
    debounceMs,
  });
  /** Releases the next pending load once one is waiting. */
  const releaseNext = async (): Promise<void> => {
    while (releases.length === 0) await new Promise((r) => setImmediate(r));
    releases.shift()?.();
  };
  return { q, applied, releaseNext };
}

describe('ReloadQueue.idle', () => {
  it('waits out a scheduled reload and the load it starts, then sees it applied', async () => {
    const { q, applied, releaseNext } = queue();
    q.schedule();
    let idle = false;
    const done = q.idle().then(() => (idle = true));
    await releaseNext();
    await done;
    expect(idle).toBe(true);
    expect(applied).toEqual([1]);
  });

  it('a reload requested while one runs keeps it busy until the newest is applied', async () => {
    const { q, applied, releaseNext } = queue();
    void q.reload();
    const done = q.idle();
    void q.reload();
    await releaseNext(); // the first load, overtaken: not applied
    await releaseNext(); // the newest
    await done;
    expect(applied).toEqual([2]);
  });

  it('is immediate when nothing is pending, and after dispose', async () => {
    const { q } = queue();
    await q.idle();
    q.schedule();
    q.dispose();
    await q.idle();
  });
});
