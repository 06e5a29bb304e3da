import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointJournal } from '../../../../src/agent/checkpoints/checkpointJournal';
import { CheckpointStore } from '../../../../src/agent/checkpoints/checkpointStore';
import { readSnapshot } from '../../../../src/agent/checkpoints/fileSnapshot';

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-journal-')));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Records the agent writing `content` to `file` in the store's current turn, as the Write wrapper does. */
async function agentWrites(store: CheckpointStore, file: string, content: string, id: string): Promise<void> {
  const before = await readSnapshot(file);
  writeFileSync(file, content);
  store.record({ toolUseId: id, toolName: 'Write', path: file, before, after: await readSnapshot(file) });
}

describe('CheckpointJournal', () => {
  it('a store loaded from its journal (a resumed session) can still undo and restore, with the saved marks', async () => {
    const file = path.join(dir, 'app.txt');
    writeFileSync(file, 'v0\n');
    const journal = new CheckpointJournal(path.join(dir, 'history'));
    const first = new CheckpointStore(undefined, journal);
    first.beginTurn('one', { length: 0, compactions: 0, pendingContext: ['ctx'] });
    await agentWrites(first, file, 'v1\n', 'w1');
    first.beginTurn('two', { length: 2, compactions: 0, pendingContext: [] });
    await agentWrites(first, file, 'v2\n', 'w2');
    await agentWrites(first, path.join(dir, 'new.txt'), 'n\n', 'w3');

    const { store, problem } = CheckpointStore.load(new CheckpointJournal(path.join(dir, 'history')));
    expect(problem).toBeUndefined();
    expect(store.list()).toEqual([
      { id: 1, prompt: 'one' },
      { id: 2, prompt: 'two' },
    ]);
    expect(store.markOf(1)).toEqual({ length: 0, compactions: 0, pendingContext: ['ctx'] });
    expect(store.changeOf('w2')?.after).toEqual({ kind: 'bytes', bytes: Buffer.from('v2\n') });
    const report = await store.restoreTo(1);
    expect(report.conflicts).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('v0\n');
    expect(readdirSync(dir).sort()).toEqual(['app.txt', 'history']);
    // Each distinct content is saved once, by hash, beside the index.
    expect(readdirSync(path.join(dir, 'history')).filter((f) => f !== 'checkpoints.json')).toHaveLength(4);
  });

  it('a damaged index gives an empty store and a reason naming the file and the place', async () => {
    const history = path.join(dir, 'history');
    const journal = new CheckpointJournal(history);
    const store0 = new CheckpointStore(undefined, journal);
    store0.beginTurn('one');
    expect(existsSync(history)).toBe(false); // nothing is saved before the agent changes a file
    await agentWrites(store0, path.join(dir, 'a.txt'), 'a', 'w1');
    const index = path.join(history, 'checkpoints.json');
    const saved = JSON.parse(readFileSync(index, 'utf8')) as { turns: { id: unknown }[] };
    saved.turns[0]!.id = 'first';
    writeFileSync(index, JSON.stringify(saved));

    const { store, problem } = CheckpointStore.load(new CheckpointJournal(history));
    expect(store.list()).toEqual([]);
    expect(problem).toBe(`checkpoints not restored: ${index} at turns.0.id: Invalid input: expected number, received string`);
  });

  it('a copy changed on disk is never restored: the file is reported as not undoable', async () => {
    const file = path.join(dir, 'app.txt');
    writeFileSync(file, 'original\n');
    const history = path.join(dir, 'history');
    const store = new CheckpointStore(undefined, new CheckpointJournal(history));
    store.beginTurn('one');
    await agentWrites(store, file, 'agent\n', 'w1');
    const copy = readdirSync(history).find((f) => readFileSync(path.join(history, f), 'utf8') === 'original\n');
    writeFileSync(path.join(history, copy!), 'tampered\n');

    const loaded = CheckpointStore.load(new CheckpointJournal(history)).store;
    const report = await loaded.undo(1);
    expect(readFileSync(file, 'utf8')).toBe('agent\n');
    expect(report.failed).toEqual([{ path: file, reason: 'cannot be undone: no copy of it was kept: its saved copy was altered' }]);
  });
});
