import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Session } from '../../../../src/agent/session';
import { createBuiltinTools } from '../../../../src/agent/tools/builtinTools';
import { readTranscript } from '../../../../src/agent/transcriptReader';
import { HookRegistry } from '../../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../../src/hooks/hookRunner';
import { createHooksApi } from '../../../../src/hooks/hooksApi';
import type { Turn } from '../agentHarness';
import { RecordingModel } from '../agentHarness';

let dir: string;
let runner: HookRunner;
let registry: HookRegistry;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-rewind-')));
  registry = new HookRegistry();
  runner = new HookRunner(registry, { projectDir: dir });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function makeSession(turns: readonly Turn[], extra: { sessionId?: string; history?: Session['messages'] } = {}): { session: Session; model: RecordingModel } {
  const model = new RecordingModel(turns);
  const session = new Session({
    cwd: dir,
    projectDir: dir,
    transcriptDir: path.join(dir, 'transcripts'),
    model,
    hooks: runner,
    tools: createBuiltinTools(),
    permissionMode: 'bypassPermissions',
    systemPrompt: 'test',
    emit: () => undefined,
    ...extra,
  });
  return { session, model };
}

const editTurn = (id: string, from: string, to: string): Turn => ({
  toolCalls: [{ id, name: 'Edit', input: { file_path: 'app.txt', old_string: from, new_string: to } }],
});
const signal = (): AbortSignal => new AbortController().signal;

describe('Session checkpoints', () => {
  it('Restore Checkpoint rolls back two turns: files, conversation, and the transcript a resume reads', async () => {
    writeFileSync(path.join(dir, 'app.txt'), 'colour = red\n');
    const { session, model } = makeSession([
      { text: 'Looking.' },
      editTurn('e1', 'red', 'green'),
      { text: 'Green now.' },
      editTurn('e2', 'green', 'blue'),
      { text: 'Blue now.' },
      { text: 'Fresh start.' },
    ]);
    await session.start('startup');
    await session.submit('what colour?', signal());
    await session.submit('make it green', signal());
    await session.submit('make it blue', signal());
    expect(readFileSync(path.join(dir, 'app.txt'), 'utf8')).toBe('colour = blue\n');
    const [, second] = session.checkpoints.list();
    if (!second) throw new Error('no second checkpoint');

    const result = await session.rewind(second.id);

    expect(result).toMatchObject({ ok: true, prompt: 'make it green', files: { conflicts: [], failed: [] } });
    expect(readFileSync(path.join(dir, 'app.txt'), 'utf8')).toBe('colour = red\n');
    expect(session.messages.map((m) => m.content)).toEqual(['what colour?', 'Looking.']);
    expect(session.checkpoints.list().map((c) => c.prompt)).toEqual(['what colour?']);

    // The next prompt continues from the cut: the model never sees the removed turns.
    await session.submit('try yellow', signal());
    expect(model.textOf(5)).not.toContain('green');
    await session.end('other');

    // A resumed session reads the cut conversation back, and its SessionStart says `resume` (as Claude Code).
    const loaded = readTranscript(session.transcriptPath);
    expect(loaded.messages.map((m) => m.content)).toEqual(['what colour?', 'Looking.', 'try yellow', 'Fresh start.']);
    const sources: string[] = [];
    createHooksApi(registry).onSessionStart((ctx) => void sources.push(ctx.source));
    const { session: resumed } = makeSession([], { sessionId: session.id, history: loaded.messages });
    await resumed.start('resume');
    await resumed.end('other');
    expect(sources).toEqual(['resume']);
  });

  it('Undo of a turn keeps the conversation and tells the model at the next prompt', async () => {
    writeFileSync(path.join(dir, 'app.txt'), 'colour = red\n');
    const { session, model } = makeSession([editTurn('e1', 'red', 'green'), { text: 'Green.' }, { text: 'Understood.' }]);
    await session.submit('make it green', signal());
    const [turn] = session.checkpoints.list();
    if (!turn) throw new Error('no checkpoint');

    const report = await session.undoEdits(turn.id);

    expect(report.restored).toEqual([{ path: path.join(dir, 'app.txt'), action: 'restored' }]);
    expect(readFileSync(path.join(dir, 'app.txt'), 'utf8')).toBe('colour = red\n');
    await session.submit('ok?', signal());
    expect(model.textOf(2)).toContain(`The user undid your changes to ${path.join(dir, 'app.txt')}`);
  });

  it('a rewind to an unknown checkpoint is refused, and the files stay', async () => {
    writeFileSync(path.join(dir, 'app.txt'), 'colour = red\n');
    const { session } = makeSession([editTurn('e1', 'red', 'green'), { text: 'Green.' }]);
    await session.submit('make it green', signal());
    expect(await session.rewind(99)).toEqual({ ok: false, error: 'there is no checkpoint 99 in this session' });
    expect(readFileSync(path.join(dir, 'app.txt'), 'utf8')).toBe('colour = green\n');
  });
});

describe('Session checkpoints across a resume', () => {
  it('a resumed session can still restore a checkpoint of its earlier life', async () => {
    writeFileSync(path.join(dir, 'app.txt'), 'colour = red\n');
    const { session } = makeSession([editTurn('e1', 'red', 'green'), { text: 'Green now.' }]);
    await session.submit('make it green', signal());
    await session.end('other');

    const loaded = readTranscript(session.transcriptPath);
    const { session: resumed } = makeSession([], { sessionId: session.id, history: loaded.messages });
    expect(resumed.checkpoints.list().map((c) => c.prompt)).toEqual(['make it green']);
    const result = await resumed.rewind(1);

    expect(result).toMatchObject({ ok: true, prompt: 'make it green' });
    expect(readFileSync(path.join(dir, 'app.txt'), 'utf8')).toBe('colour = red\n');
    expect(resumed.messages).toEqual([]);
    await resumed.end('other');
  });
});
