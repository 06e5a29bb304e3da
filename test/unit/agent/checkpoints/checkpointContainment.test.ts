import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Session } from '../../../../src/agent/session';
import { createBuiltinTools } from '../../../../src/agent/tools/builtinTools';
import { HookRegistry } from '../../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../../src/hooks/hookRunner';
import type { Turn } from '../agentHarness';
import { RecordingModel } from '../agentHarness';

// Issue 25 §14: Undo and Restore Checkpoint wrote the recorded path without checking that it
// still resolves inside the workspace. A folder the agent edited in is swapped for a symlink to
// a folder outside holding the same file; undoing must not write (or delete) there. Real files.

let base: string;
let ws: string;
let outside: string;
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-undo-escape-')));
  ws = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(ws, 'conf'), { recursive: true });
  mkdirSync(outside);
});
afterEach(() => rm(base, { recursive: true, force: true }));

function makeSession(turns: readonly Turn[]): Session {
  return new Session({
    cwd: ws,
    projectDir: ws,
    transcriptDir: path.join(base, 'transcripts'),
    model: new RecordingModel(turns),
    hooks: new HookRunner(new HookRegistry(), { projectDir: ws }),
    tools: createBuiltinTools(),
    permissionMode: 'bypassPermissions',
    systemPrompt: 'test',
    emit: () => undefined,
  });
}

const signal = (): AbortSignal => new AbortController().signal;

/** conf/ is moved away and replaced by a symlink to `outside`, which holds what the agent wrote. */
function swapConfForLink(files: Record<string, string>): void {
  renameSync(path.join(ws, 'conf'), path.join(base, 'conf-moved'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(outside, name), text);
  symlinkSync(outside, path.join(ws, 'conf'));
}

describe('checkpoint Undo and Restore re-check the workspace boundary', () => {
  it('Undo of an edit refuses a file whose folder now links outside, and says so; the outside file is untouched', async () => {
    writeFileSync(path.join(ws, 'conf', 'app.txt'), 'colour = red\n');
    const session = makeSession([
      { toolCalls: [{ id: 'e1', name: 'Edit', input: { file_path: 'conf/app.txt', old_string: 'red', new_string: 'green' } }] },
      { text: 'ok' },
    ]);
    await session.submit('make it green', signal());
    const [turn] = session.checkpoints.list();
    if (!turn) throw new Error('no checkpoint');
    swapConfForLink({ 'app.txt': 'colour = green\n' });
    const report = await session.undoEdits(turn.id);
    expect(report.restored).toEqual([]);
    expect(report.failed).toEqual([
      {
        path: path.join(ws, 'conf', 'app.txt'),
        reason: expect.stringMatching(/^cannot be undone: it is outside the workspace .* \(it now resolves to .*outside\/app\.txt through a symlink\)/),
      },
    ]);
    expect(readFileSync(path.join(outside, 'app.txt'), 'utf8')).toBe('colour = green\n');
  });

  it('Restore Checkpoint neither deletes a created file through the link nor recreates one there', async () => {
    const session = makeSession([
      { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'conf/new.txt', content: 'made by the agent\n' } }] },
      { text: 'ok' },
    ]);
    await session.submit('make a file', signal());
    const [turn] = session.checkpoints.list();
    if (!turn) throw new Error('no checkpoint');
    swapConfForLink({ 'new.txt': 'made by the agent\n' });
    const rewound = await session.rewind(turn.id);
    expect(rewound.ok && rewound.files.failed.map((f) => f.path)).toEqual([path.join(ws, 'conf', 'new.txt')]);
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(true);
  });

  it('inside the workspace Undo still works', async () => {
    writeFileSync(path.join(ws, 'conf', 'app.txt'), 'colour = red\n');
    const session = makeSession([
      { toolCalls: [{ id: 'e1', name: 'Edit', input: { file_path: 'conf/app.txt', old_string: 'red', new_string: 'green' } }] },
      { text: 'ok' },
    ]);
    await session.submit('make it green', signal());
    const [turn] = session.checkpoints.list();
    if (!turn) throw new Error('no checkpoint');
    expect((await session.undoEdits(turn.id)).restored).toEqual([{ path: path.join(ws, 'conf', 'app.txt'), action: 'restored' }]);
    expect(readFileSync(path.join(ws, 'conf', 'app.txt'), 'utf8')).toBe('colour = red\n');
  });
});
