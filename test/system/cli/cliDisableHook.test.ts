import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer, RecordedRequest, ScriptedReply } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { hookCommand, parseJsonResult, runCliProcess } from '../../support/cliHarness';

// `hookwise -p --disable-hook ID`: the switch the extension has in `hookwise.hooks.disabled`, for
// one headless run. A built-in provider (the compaction) switches off; the built-in limits refuse
// (they end a runaway agent) and keep running; a hook switches off by the id `hooks list` shows.
// Real CLI process, real command hooks, the real OpenAI-compatible test server.

const suite = useCliSuite();

const PROMPT = 'Read notes.txt and tell me what the OLD-PROMPT-MARKER port is.';
const isSummaryRequest = (r: RecordedRequest): boolean => String(r.body.messages?.[0]?.content ?? '').startsWith('You are compacting');

const run = (s: OpenAiTestServer, ...extra: string[]) =>
  runCliProcess(suite.cli, suite.w, ['-p', PROMPT, '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', ...extra]);

/** Records every PreCompact / PostCompact input in compact.jsonl, and writes notes.txt. */
async function recordCompaction(): Promise<void> {
  const hook = { hooks: [{ type: 'command', command: hookCommand('record-input.cjs', path.join(suite.w.ws, 'compact.jsonl')) }] };
  await suite.w.settings({ hooks: { PreCompact: [hook], PostCompact: [hook] } });
  await suite.w.write('notes.txt', 'port 4711\n');
}

/** A step that reports 70,000 prompt tokens (past the threshold of a 100,000 window), then the answer. */
const overThreshold: ScriptedReply[] = [
  toolCallsReply([{ name: 'Read', arguments: { file_path: 'notes.txt' } }], { usage: { promptTokens: 70_000, completionTokens: 20 } }),
  textReply('The port is 4711.', { usage: { promptTokens: 900, completionTokens: 5 } }),
];

describe('hookwise -p --disable-hook', () => {
  it('builtin.compaction switches the built-in compaction off for the run: past the threshold nothing is summarized', async () => {
    await recordCompaction();
    const s = await suite.serve([...overThreshold]);

    const out = await run(s, '--context-window', '100000', '--max-steps', '6', '--disable-hook', 'builtin.compaction');

    expect(parseJsonResult(out)).toMatchObject({ is_error: false, result: 'The port is 4711.' });
    expect(s.requests.some(isSummaryRequest)).toBe(false);
    expect(s.requests).toHaveLength(2);
    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain('OLD-PROMPT-MARKER');
    expect(suite.w.exists('compact.jsonl')).toBe(false);
    expect(out.stderr).not.toMatch(/warning/);
  });

  it('the built-in limits cannot be switched off: a clear warning, and --max-steps still ends the run', async () => {
    const loop = Array.from({ length: 6 }, (_, i) => toolCallsReply([{ id: `c${i}`, name: 'Glob', arguments: { pattern: '*.txt' } }]));
    const s = await suite.serve(loop);

    const out = await run(s, '--max-steps', '2', '--disable-hook', 'builtin.limits');

    expect(out.stderr).toContain(
      'hookwise: warning: --disable-hook "built-in limits" is ignored: the step, token and time limits end a runaway agent, so they always run.',
    );
    expect(s.requests).toHaveLength(2);
    expect(parseJsonResult(out).is_error).toBe(true);
  });

  it('switches a configured hook off by the id hooks list shows; an id naming nothing is said', async () => {
    await suite.w.settings({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/stop-ran"' }] }] } });
    const list = await runCliProcess(suite.cli, suite.w, ['hooks', 'list', '--json']);
    const id = (JSON.parse(list.stdout) as { id: string }[])[0]?.id ?? '';
    expect(id).toContain('.claude/settings.json');
    const s = await suite.serve([textReply('done'), textReply('done')]);

    const off = await run(s, '--disable-hook', id, '--disable-hook', 'no-such-hook');
    expect(parseJsonResult(off)).toMatchObject({ is_error: false, result: 'done' });
    expect(suite.w.exists('stop-ran')).toBe(false);
    expect(off.stderr).toContain('hookwise: warning: --disable-hook "no-such-hook" names no hook and no built-in provider, so it turns nothing off');

    const on = await run(s);
    expect(parseJsonResult(on)).toMatchObject({ is_error: false });
    expect(suite.w.exists('stop-ran')).toBe(true);
  });
});

describe('hookwise -p --disable-hook: the memory and task-reminder providers', () => {
  it('builtin.memory: a Read below a folder with its own CLAUDE.md loads it by default, and not when switched off', async () => {
    await suite.w.write('CLAUDE.md', 'Root rules.');
    await suite.w.write('packages/api/CLAUDE.md', 'API: never log tokens.');
    await suite.w.write('packages/api/server.ts', 'export {};\n');
    const script = () => [toolCallsReply([{ name: 'Read', arguments: { file_path: 'packages/api/server.ts' } }]), textReply('done')];
    const secondRequest = (s: OpenAiTestServer) => JSON.stringify(s.requests[1]?.body.messages ?? []);

    const on = await suite.serve(script());
    expect(parseJsonResult(await run(on))).toMatchObject({ is_error: false, result: 'done' });
    expect(secondRequest(on)).toContain('API: never log tokens.');

    const off = await suite.serve(script());
    const out = await run(off, '--disable-hook', 'builtin.memory');
    expect(parseJsonResult(out)).toMatchObject({ is_error: false, result: 'done' });
    expect(secondRequest(off)).not.toContain('API: never log tokens.');
    // The start-up memory is not the provider's: it still loads.
    expect(String(off.requests[0]?.body.messages?.[0]?.content ?? '')).toContain('Root rules.');
    expect(out.stderr).not.toMatch(/warning/);
  });

  it('builtin.taskReminders: after ten model turns without the task tools the model is reminded, and not when switched off', async () => {
    const reminded = (s: OpenAiTestServer) =>
      s.requests.some((r) => JSON.stringify(r.body.messages ?? []).includes("The task tools haven't been used recently"));
    const script = () => [
      ...Array.from({ length: 12 }, (_, i) => toolCallsReply([{ id: `g${i}`, name: 'Glob', arguments: { pattern: '*.md' } }])),
      textReply('done'),
    ];

    const on = await suite.serve(script());
    expect(parseJsonResult(await run(on, '--max-steps', '20'))).toMatchObject({ is_error: false, result: 'done' });
    expect(reminded(on)).toBe(true);

    const off = await suite.serve(script());
    expect(parseJsonResult(await run(off, '--max-steps', '20', '--disable-hook', 'builtin.taskReminders'))).toMatchObject({ is_error: false, result: 'done' });
    expect(reminded(off)).toBe(false);
  });
});
