import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../../src/agent/checkpoints/checkpointStore';
import { withCheckpoints } from '../../../../src/agent/checkpoints/checkpointTools';
import { readSnapshot } from '../../../../src/agent/checkpoints/fileSnapshot';
import { createBuiltinTools } from '../../../../src/agent/tools/builtinTools';
import type { AnyAgentTool, ToolContext } from '../../../../src/agent/tools/tool';
import { createTodoStore } from '../../../../src/agent/tools/todoStore';

let dir: string;
let store: CheckpointStore;
let tools: Map<string, AnyAgentTool>;
let calls = 0;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-checkpoints-')));
  store = new CheckpointStore();
  tools = new Map(withCheckpoints(createBuiltinTools(), store).map((t) => [t.name, t]));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs a built-in tool, wrapped as the session wraps it, with real files in `dir`. */
async function run(name: string, input: Record<string, unknown>): Promise<{ isError: boolean; content: string }> {
  const tool = tools.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const ctx: ToolContext = {
    cwd: dir,
    workspaceRoot: dir,
    signal: new AbortController().signal,
    sessionId: 's',
    agentId: 'main',
    todos: createTodoStore(),
    toolUseId: `call-${++calls}`,
  };
  return tool.execute(tool.inputSchema.parse(input), ctx);
}

const file = (name: string): string => path.join(dir, name);
const read = (name: string): string => readFileSync(file(name), 'utf8');

describe('CheckpointStore with the Write and Edit tools', () => {
  it("undo puts back exactly the turn's starting content of an edited file, and deletes a file the agent created", async () => {
    writeFileSync(file('a.txt'), 'one\r\ntwo\r\nthree\r\n');
    const turn = store.beginTurn('change things');
    expect((await run('Edit', { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' })).isError).toBe(false);
    expect((await run('Edit', { file_path: 'a.txt', old_string: 'three', new_string: 'THREE' })).isError).toBe(false);
    expect((await run('Write', { file_path: 'sub/new.txt', content: 'fresh\n' })).isError).toBe(false);

    expect(store.files(turn.id).map((f) => [path.basename(f.path), f.change, f.state])).toEqual([
      ['a.txt', 'modified', 'pending'],
      ['new.txt', 'created', 'pending'],
    ]);
    const report = await store.undo(turn.id);

    expect(read('a.txt')).toBe('one\r\ntwo\r\nthree\r\n');
    expect(existsSync(file('sub/new.txt'))).toBe(false);
    expect(report.restored.map((r) => [path.basename(r.path), r.action]).sort()).toEqual([
      ['a.txt', 'restored'],
      ['new.txt', 'deleted'],
    ]);
    expect(report.conflicts).toEqual([]);
    expect(store.files(turn.id).every((f) => f.state === 'undone')).toBe(true);
  });

  it('a file the user changed after the agent wrote it is left as the user has it, and reported as a conflict', async () => {
    writeFileSync(file('b.txt'), 'original\n');
    const turn = store.beginTurn('edit b');
    await run('Edit', { file_path: 'b.txt', old_string: 'original', new_string: 'agent' });
    writeFileSync(file('b.txt'), 'agent\nplus my own line\n');

    const report = await store.undo(turn.id, file('b.txt'));

    expect(read('b.txt')).toBe('agent\nplus my own line\n');
    expect(report.restored).toEqual([]);
    expect(report.conflicts).toEqual([{ path: file('b.txt'), reason: expect.stringContaining('your version was kept') }]);
    expect(store.files(turn.id)[0]?.state).toBe('conflict');
  });

  it('a file the agent deleted comes back with its bytes (binary content included)', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 10]);
    writeFileSync(file('blob.bin'), bytes);
    const turn = store.beginTurn('delete the blob');
    // Write and Edit never delete; this is what a deleting change looks like to the store.
    const before = await readSnapshot(file('blob.bin'));
    await rm(file('blob.bin'));
    store.record({ toolUseId: 'd1', toolName: 'Delete', path: file('blob.bin'), before, after: await readSnapshot(file('blob.bin')) });

    expect(store.files(turn.id)[0]?.change).toBe('deleted');
    const report = await store.undo(turn.id);
    expect(readFileSync(file('blob.bin')).equals(bytes)).toBe(true);
    expect(report.restored).toEqual([{ path: file('blob.bin'), action: 'recreated' }]);
  });

  it('a file over the copy limit is listed but undo refuses it with the reason, leaving it alone', async () => {
    const small = new CheckpointStore(16);
    tools = new Map(withCheckpoints(createBuiltinTools(), small).map((t) => [t.name, t]));
    writeFileSync(file('big.txt'), 'x'.repeat(64));
    const turn = small.beginTurn('rewrite big');
    await run('Write', { file_path: 'big.txt', content: 'short' });

    const report = await small.undo(turn.id);
    expect(read('big.txt')).toBe('short');
    expect(report.failed).toEqual([
      { path: file('big.txt'), reason: expect.stringMatching(/cannot be undone: no copy of it was kept: it is 64 bytes, over the 16-byte/) },
    ]);
  });

  it('restoring a checkpoint rolls back every later turn, newest first, and forgets them', async () => {
    writeFileSync(file('c.txt'), 'v0\n');
    const first = store.beginTurn('first');
    await run('Write', { file_path: 'c.txt', content: 'v1\n' });
    const second = store.beginTurn('second');
    await run('Write', { file_path: 'c.txt', content: 'v2\n' });
    await run('Write', { file_path: 'd.txt', content: 'new in turn 2\n' });
    store.beginTurn('third (no edits)');

    const preview = store.preview(first.id);
    expect(preview?.turnsRemoved).toBe(3);
    expect(preview?.files.map((f) => [path.basename(f.path), f.action])).toEqual([
      ['c.txt', 'restore'],
      ['d.txt', 'delete'],
    ]);

    const report = await store.restoreTo(first.id);
    expect(read('c.txt')).toBe('v0\n');
    expect(existsSync(file('d.txt'))).toBe(false);
    expect(report.conflicts).toEqual([]);
    expect(store.list()).toEqual([]);
    expect(store.files(second.id)).toEqual([]);
  });

  it('a failed Edit records nothing', async () => {
    writeFileSync(file('e.txt'), 'abc');
    const turn = store.beginTurn('bad edit');
    expect((await run('Edit', { file_path: 'e.txt', old_string: 'zzz', new_string: 'y' })).isError).toBe(true);
    expect(store.files(turn.id)).toEqual([]);
  });

  it('keeps the change of each call for its card', async () => {
    writeFileSync(file('f.txt'), 'a\n');
    store.beginTurn('two edits');
    await run('Edit', { file_path: 'f.txt', old_string: 'a', new_string: 'b' });
    await run('Edit', { file_path: 'f.txt', old_string: 'b', new_string: 'c' });
    const second = store.changeOf(`call-${calls}`);
    expect(second?.before).toEqual({ kind: 'bytes', bytes: Buffer.from('b\n') });
    expect(second?.after).toEqual({ kind: 'bytes', bytes: Buffer.from('c\n') });
  });
});
