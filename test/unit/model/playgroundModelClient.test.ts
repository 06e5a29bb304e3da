import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectResponse } from '../../../src/model/modelClient';
import type { ModelRequest, ModelStreamEvent } from '../../../src/model/modelClient';
import { PlaygroundModelClient, playgroundFinishedText } from '../../../src/model/playgroundModelClient';
import { loadPlaygroundScript, parsePlaygroundScript } from '../../../src/model/playgroundScript';
import type { PlaygroundScript } from '../../../src/model/playgroundScript';

const ask: ModelRequest = { messages: [{ role: 'user', content: 'go' }] };
const never = (): AbortSignal => new AbortController().signal;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookwise-playground-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function valid(value: unknown): PlaygroundScript {
  const result = parsePlaygroundScript(value, 'test.json');
  if (!result.ok) throw new Error(result.error);
  return result.script;
}

describe('PlaygroundModelClient', () => {
  const script = valid({
    name: 'demo',
    turns: [
      {
        text: 'I will list the files.',
        toolCalls: [
          { name: 'Bash', input: { command: 'ls' } },
          { id: 'mine', name: 'Read', input: { file_path: 'a.txt' } },
        ],
      },
      { toolCalls: [{ name: 'Bash', arguments: '{"command": "ls' }] },
      { text: 'All done.' },
    ],
  });

  it('is always labelled "Playground (scripted)"', () => {
    expect(new PlaygroundModelClient(script).label).toBe('Playground (scripted)');
  });

  it('replays one turn per call, then a finished text', async () => {
    const client = new PlaygroundModelClient(script, { chunkDelayMs: 0 });
    const first = await collectResponse(client, ask, never());
    expect(first).toMatchObject({ text: 'I will list the files.', finishReason: 'tool_calls' });
    expect(first.toolCalls).toEqual([
      { id: 'call_playground_1_1', name: 'Bash', argumentsText: '{"command":"ls"}' },
      { id: 'mine', name: 'Read', argumentsText: '{"file_path":"a.txt"}' },
    ]);
    const second = await collectResponse(client, ask, never());
    expect(second.toolCalls.map((c) => c.argumentsText)).toEqual(['{"command": "ls']); // broken on purpose, passed raw
    expect(await collectResponse(client, ask, never())).toMatchObject({ text: 'All done.', toolCalls: [], finishReason: 'stop' });
    expect(client.turnsUsed).toBe(3);
    expect((await collectResponse(client, ask, never())).text).toBe(playgroundFinishedText);
  });

  it('a gate that says why the script cannot play answers that instead, keeping the turn for later', async () => {
    const tour = valid({
      requiresProjectHooks: true,
      turns: [{ text: 'That popup came from a hook.', toolCalls: [{ name: 'Bash', input: { command: 'npm test' } }] }],
    });
    expect(tour.requiresProjectHooks).toBe(true);
    let off: string | undefined = 'The project hooks are off.';
    const client = new PlaygroundModelClient(tour, { chunkDelayMs: 0, gate: (s) => (s.requiresProjectHooks ? off : undefined) });
    const held = await collectResponse(client, ask, never());
    expect(held.text).toBe('The project hooks are off.');
    expect(held.toolCalls).toEqual([]);
    expect(client.turnsUsed).toBe(0);
    off = undefined;
    const played = await collectResponse(client, ask, never());
    expect(played.text).toBe('That popup came from a hook.');
    expect(played.toolCalls.map((c) => c.name)).toEqual(['Bash']);
  });

  it('streams text in several chunks, then usage and done', async () => {
    const client = new PlaygroundModelClient(valid({ turns: [{ text: 'a fairly long sentence to stream' }] }), { chunkDelayMs: 1, chunkSize: 5 });
    const events: ModelStreamEvent[] = [];
    for await (const e of client.stream(ask, never())) events.push(e);
    expect(events.filter((e) => e.type === 'text').length).toBe(7);
    expect(events.at(-2)?.type).toBe('usage');
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('rejects with the abort reason mid-stream', async () => {
    const client = new PlaygroundModelClient(valid({ turns: [{ text: 'x'.repeat(200) }] }), { chunkDelayMs: 20, chunkSize: 1 });
    const controller = new AbortController();
    const reason = new Error('stop');
    const run = collectResponse(client, ask, controller.signal, () => controller.abort(reason));
    await expect(run).rejects.toBe(reason);
  });
});

describe('playground scripts', () => {
  it('loads a file with comments and trailing commas', async () => {
    const file = join(dir, 'ok.jsonc');
    await writeFile(file, '// demo\n{ "turns": [ { "text": "hi" }, ], }\n');
    expect(await loadPlaygroundScript(file)).toEqual({ ok: true, script: { turns: [{ text: 'hi' }] } });
  });

  it('names the file and the JSON path of a malformed script', async () => {
    const file = join(dir, 'demo.json');
    await writeFile(file, JSON.stringify({ turns: [{ text: 'a' }, { text: 'b' }, { toolCalls: [{ name: 42 }] }] }));
    const result = await loadPlaygroundScript(file);
    expect(result).toEqual({ ok: false, error: `${file} › turns[2].toolCalls[0].name: expected string, received number` });
  });

  it('reports invalid JSON with line and column', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{\n  "turns": [\n    { "text": "a" }\n    { "text": "b" }\n  ]\n}\n');
    const result = await loadPlaygroundScript(file);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:5: not valid JSON`));
  });

  it('reports a missing file as an error result, not a throw', async () => {
    const result = await loadPlaygroundScript(join(dir, 'nope.json'));
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining('file not found') });
  });

  it('rejects unknown keys, empty turns and input+arguments together, with paths', () => {
    expect(parsePlaygroundScript({ turns: [{ txt: 'typo' }] }, 's.json')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^s\.json › turns\[0\]: .*txt/),
    });
    expect(parsePlaygroundScript({ turns: [{}] }, 's.json')).toEqual({ ok: false, error: 's.json › turns[0]: a turn needs "text" or "toolCalls"' });
    expect(parsePlaygroundScript({ turns: [{ toolCalls: [{ name: 'Bash', input: {}, arguments: '{}' }] }] }, 's.json')).toMatchObject({
      ok: false,
      error: expect.stringContaining('s.json › turns[0].toolCalls[0]: give either "input"'),
    });
    expect(parsePlaygroundScript({}, 's.json')).toMatchObject({ ok: false, error: expect.stringMatching(/^s\.json › turns: expected array/) });
  });
});
