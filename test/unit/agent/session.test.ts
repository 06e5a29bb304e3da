import { appendFileSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvents';
import { Session } from '../../../src/agent/session';
import { createBuiltinTools } from '../../../src/agent/tools/builtinTools';
import { TranscriptWriter } from '../../../src/agent/transcript';
import { readTranscript } from '../../../src/agent/transcriptReader';
import { CommandHookAction } from '../../../src/hooks/actions/commandHookAction';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../src/hooks/hookRunner';
import { createHooksApi } from '../../../src/hooks/hooksApi';
import type { HooksApi } from '../../../src/hooks/hooksApi';
import { addContext, allow, block } from '../../../src/hooks/hookOutcome';
import type { Turn } from './agentHarness';
import { RecordingModel } from './agentHarness';

let dir: string;
let registry: HookRegistry;
let runner: HookRunner;
let hooks: HooksApi;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-session-')));
  registry = new HookRegistry();
  runner = new HookRunner(registry, { projectDir: dir });
  hooks = createHooksApi(registry);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function makeSession(
  turns: readonly Turn[],
  extra: { sessionId?: string; history?: Session['messages'] } = {},
): { session: Session; model: RecordingModel; events: AgentEvent[] } {
  const model = new RecordingModel(turns);
  const events: AgentEvent[] = [];
  const session = new Session({
    cwd: dir,
    projectDir: dir,
    transcriptDir: path.join(dir, 'transcripts'),
    model,
    hooks: runner,
    tools: createBuiltinTools(),
    permissionMode: 'bypassPermissions',
    systemPrompt: 'test',
    emit: (e) => events.push(e),
    ...extra,
  });
  runner.addObserver({ onHookFinished: (r) => session.transcriptWriter.writeHookRun(r) });
  return { session, model, events };
}

function transcriptLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('Session', () => {
  it('a UserPromptSubmit block drops the prompt: the model is never called and the user is told why', async () => {
    hooks.onUserPromptSubmit((ctx) => (ctx.prompt.includes('password') ? block('prompts must not contain secrets') : undefined));
    const { session, model, events } = makeSession([{ text: 'never' }]);
    await session.start('startup');
    const result = await session.submit('my password is hunter2', new AbortController().signal);
    await session.end('other');

    expect(result).toEqual({ status: 'blocked', reason: 'prompts must not contain secrets', blockedBy: 'a UserPromptSubmit hook' });
    expect(model.requests).toHaveLength(0);
    expect(session.messages.some((m) => m.content.includes('hunter2'))).toBe(false);
    expect(events.some((e) => e.type === 'systemMessage' && e.text.includes('prompts must not contain secrets'))).toBe(true);
  });

  it("a SessionStart command hook's plain stdout reaches the model as context before the prompt", async () => {
    registry.register({
      event: 'SessionStart',
      action: new CommandHookAction('echo "This project uses pnpm, never npm."'),
      source: { kind: 'code', label: 'test' },
    });
    const { session, model } = makeSession([{ text: 'ok' }]);
    await session.start('startup');
    await session.submit('install deps', new AbortController().signal);
    await session.end('other');

    const messages = model.messagesOf(0);
    const contextIndex = messages.findIndex((m) => m.content.includes('This project uses pnpm, never npm.'));
    const promptIndex = messages.findIndex((m) => m.content === 'install deps');
    expect(contextIndex).toBeGreaterThan(0);
    expect(contextIndex).toBeLessThan(promptIndex);
  });

  it('chat attachments reach the model just before the prompt; UserPromptSubmit hooks see the prompt as typed', async () => {
    const seen: string[] = [];
    hooks.onUserPromptSubmit((ctx) => void seen.push(ctx.prompt));
    const { session, model } = makeSession([{ text: 'ok' }]);
    const selection = '<system-reminder>\nThe user selected the lines 1 to 2 from /ws/a.ts:\nx\n</system-reminder>';
    await session.submit('explain this', new AbortController().signal, [selection]);
    const messages = model.messagesOf(0);
    const at = messages.findIndex((m) => m.content === selection);
    expect(at).toBeGreaterThan(0);
    expect(messages[at + 1]?.content).toBe('explain this');
    expect(seen).toEqual(['explain this']);
  });

  it('UserPromptSubmit additionalContext reaches the model with the prompt', async () => {
    hooks.onUserPromptSubmit(() => addContext('Current branch: feature/x'));
    const { session, model } = makeSession([{ text: 'ok' }]);
    await session.submit('what branch?', new AbortController().signal);
    expect(model.textOf(0)).toContain('Current branch: feature/x');
  });

  it('each UserPromptSubmit output is cut at 10,000 characters with a marker; SessionStart context is not', async () => {
    hooks.onSessionStart(() => addContext(`s${'b'.repeat(12_000)}`));
    hooks.onUserPromptSubmit(() => addContext(`u${'a'.repeat(12_000)}`));
    const { session, model } = makeSession([{ text: 'ok' }]);
    await session.start('startup');
    await session.submit('hi', new AbortController().signal);
    const sent = model.textOf(0);
    expect(sent).toContain(`u${'a'.repeat(9_999)}… [output truncated - exceeded 10000 characters]`);
    expect(sent).not.toContain('a'.repeat(10_000));
    expect(sent).toContain('b'.repeat(12_000));
  });

  it('an in-process UserPromptSubmit hook may rewrite the prompt the model gets', async () => {
    hooks.onUserPromptSubmit((ctx) => ({ updatedInput: { prompt: `${ctx.prompt} (answer in French)` } }));
    const { session, model } = makeSession([{ text: 'ok' }]);
    await session.submit('say hello', new AbortController().signal);
    expect(model.messagesOf(0).at(-1)).toEqual({ role: 'user', content: 'say hello (answer in French)' });
  });

  it('SessionStart gets the source it was started with', async () => {
    const sources: string[] = [];
    hooks.onSessionStart((ctx) => void sources.push(ctx.source));
    const { session } = makeSession([]);
    await session.start('resume');
    expect(sources).toEqual(['resume']);
  });
});

describe('transcript', () => {
  it("is Claude Code's JSONL: user / assistant entries with content blocks (tool_use, tool_result), threaded by uuid; hook runs are hookwise entries", async () => {
    hooks.onPreToolUse(() => allow('fine'), { label: 'audit pre' });
    const { session } = makeSession([{ text: 'Listing.', toolCalls: [{ id: 'c1', name: 'Bash', input: { command: 'echo listed' } }] }, { text: 'Done.' }]);
    await session.start('startup');
    await session.submit('list things', new AbortController().signal);
    await session.end('other');

    const lines = transcriptLines(session.transcriptPath);
    expect(lines[0]).toMatchObject({ type: 'hookwise', subtype: 'session' });
    expect(lines.at(-1)).toMatchObject({ type: 'hookwise', subtype: 'session_end' });
    for (const l of lines) expect(l).toMatchObject({ sessionId: session.id, uuid: expect.any(String), timestamp: expect.any(String), isSidechain: false });
    const user = lines.find((l) => l.type === 'user');
    expect(user).toMatchObject({ parentUuid: null, message: { role: 'user', content: 'list things' } });
    const assistant = lines.find((l) => l.type === 'assistant');
    expect(assistant).toMatchObject({
      parentUuid: user?.uuid,
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Listing.' },
          { type: 'tool_use', id: 'c1', name: 'Bash', input: { command: 'echo listed' } },
        ],
      },
    });
    const result = lines.find((l) => l.type === 'user' && l !== user);
    expect(result).toMatchObject({
      parentUuid: assistant?.uuid,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: expect.stringContaining('listed') }] },
    });
    expect(lines).toContainEqual(expect.objectContaining({ type: 'hookwise', subtype: 'hook', event: 'PreToolUse', hook: 'audit pre', decision: 'allow' }));
    // In order: the call is written before the hook that judged it, its result after.
    const at = (pred: (l: Record<string, unknown>) => boolean): number => lines.findIndex(pred);
    expect(at((l) => l === assistant)).toBeLessThan(at((l) => l.subtype === 'hook' && l.event === 'PreToolUse'));
    expect(at((l) => l.subtype === 'hook' && l.event === 'PreToolUse')).toBeLessThan(at((l) => l === result));
  });

  it('a hook can read the tool call it is judging from transcript_path', async () => {
    const seen: unknown[] = [];
    hooks.onPreToolUse((ctx) => {
      const lines = readFileSync(ctx.transcript_path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const blocks = lines.flatMap((l) => (l.type === 'assistant' ? ((l.message as { content: Record<string, unknown>[] }).content ?? []) : []));
      seen.push(blocks.filter((b) => b.type === 'tool_use').map((b) => b.id));
    });
    const { session } = makeSession([
      { toolCalls: [{ id: 'first', name: 'Bash', input: { command: 'true' } }] },
      { toolCalls: [{ id: 'second', name: 'Bash', input: { command: 'true' } }] },
      { text: 'ok' },
    ]);
    await session.submit('go', new AbortController().signal);
    expect(seen).toEqual([['first'], ['first', 'second']]);
  });

  it('readTranscript gives back the conversation the model saw (round trip)', async () => {
    const { session } = makeSession([{ text: 'Reading.', toolCalls: [{ id: 'r1', name: 'Bash', input: { command: 'echo one' } }] }, { text: 'Done.' }]);
    await session.start('startup');
    await session.submit('do it', new AbortController().signal);
    await session.end('other');

    const loaded = readTranscript(session.transcriptPath);
    expect(loaded.skipped).toEqual([]);
    expect(loaded.sessionId).toBe(session.id);
    expect(loaded.messages).toEqual(session.messages);
  });

  it('a resumed session continues the conversation: the model sees the old turns first', async () => {
    const first = makeSession([{ text: 'The answer is 42.' }]);
    await first.session.submit('what is the answer?', new AbortController().signal);
    await first.session.end('other');
    const history = readTranscript(first.session.transcriptPath).messages;

    const second = makeSession([{ text: 'You asked about the answer.' }], { sessionId: first.session.id, history });
    await second.session.start('resume');
    await second.session.submit('what did I ask?', new AbortController().signal);
    await second.session.end('other');

    const text = second.model.textOf(0);
    expect(text.indexOf('what is the answer?')).toBeLessThan(text.indexOf('The answer is 42.'));
    expect(text.indexOf('The answer is 42.')).toBeLessThan(text.indexOf('what did I ask?'));
    // One file, both runs.
    expect(readTranscript(second.session.transcriptPath).messages.map((m) => m.content)).toEqual([
      'what is the answer?',
      'The answer is 42.',
      'what did I ask?',
      'You asked about the answer.',
    ]);
  });

  it('a truncated last line (process killed mid-write) is skipped with a notice; every complete line is kept', () => {
    const file = path.join(dir, 'cut.jsonl');
    const writer = new TranscriptWriter(file);
    writer.writeMessage({ role: 'user', content: 'hello' }, 'main');
    writer.writeMessage({ role: 'assistant', content: 'hi there' }, 'main');
    writer.close();
    appendFileSync(file, '{"type":"assistant","agent_id":"main","content":"cut in th');

    const loaded = readTranscript(file);
    expect(loaded.messages.map((m) => m.content)).toEqual(['hello', 'hi there']);
    expect(loaded.skipped).toEqual([{ line: 3, reason: expect.stringContaining('truncated last line') }]);
  });

  it('after resuming a transcript with a truncated last line, the lines written next are not glued to it', () => {
    const file = path.join(dir, 'cut.jsonl');
    const writer = new TranscriptWriter(file);
    writer.writeMessage({ role: 'user', content: 'first prompt' }, 'main');
    writer.close();
    appendFileSync(file, '{"type":"assistant","agent_id":"main","content":"cut in th');

    const resumed = new TranscriptWriter(file);
    resumed.writeMessage({ role: 'user', content: 'second prompt' }, 'main');
    resumed.close();

    const loaded = readTranscript(file);
    expect(loaded.messages.map((m) => m.content)).toEqual(['first prompt', 'second prompt']);
    expect(loaded.skipped).toHaveLength(1);
  });

  it('a tool call left without a result by a crash is answered as interrupted on resume', () => {
    const file = path.join(dir, 'crash.jsonl');
    const writer = new TranscriptWriter(file);
    writer.writeMessage({ role: 'user', content: 'go' }, 'main');
    writer.writeMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'lost', name: 'Bash', argumentsText: '{"command":"sleep 100"}' }] }, 'main');
    writer.close();
    const loaded = readTranscript(file);
    expect(loaded.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'lost', isError: true });
  });
});
