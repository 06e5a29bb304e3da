import { appendFileSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvents';
import { HookwiseRuntime } from '../../../src/runtime/hookwiseRuntime';
import { SessionManager } from '../../../src/runtime/sessionManager';
import { replayEvents } from '../../../src/agent/sessionReplay';
import { standardConfigSources } from '../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import type { HookRunRecord } from '../../../src/hooks/hookRunTypes';
import type { CliWorkspace } from '../../support/cliHarness';
import { makeCliWorkspace } from '../../support/cliHarness';
import type { Turn } from '../agent/agentHarness';
import { RecordingModel } from '../agent/agentHarness';

let w: CliWorkspace;
beforeEach(async () => {
  w = await makeCliWorkspace();
});
afterEach(async () => {
  await w.cleanup();
});

/** One report of the runner to its observers. */
interface Observed {
  readonly phase: 'started' | 'finished';
  readonly record: HookRunRecord;
}

/** A runtime as the CLI and the extension build it (the workspace's `.claude/settings.json` loaded, trusted), with a manager over it. */
async function setup(turns: readonly Turn[]) {
  const transcriptDir = path.join(w.hookwiseHome, 'projects', 'ws');
  const observed: Observed[] = [];
  const events: AgentEvent[] = [];
  const runtime = new HookwiseRuntime({
    projectDir: w.ws,
    homeDir: w.home,
    model: new RecordingModel(turns),
    transcriptDir,
    observers: [
      { onHookStarted: (record) => observed.push({ phase: 'started', record }), onHookFinished: (record) => observed.push({ phase: 'finished', record }) },
    ],
  });
  runtime.applyConfig(await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] })), { trusted: true });
  const manager = new SessionManager({
    runtime,
    projectDir: w.ws,
    homeDir: w.home,
    transcriptDir,
    settings: () => ({ permissionMode: 'default', trusted: true, emit: (e) => events.push(e) }),
  });
  const prompt = async (text: string) => (await manager.ensureStarted(new AbortController().signal)).submit(text, new AbortController().signal);
  return { runtime, manager, transcriptDir, observed, events, prompt };
}

/** A command hook that appends its input (one JSON line) to `file` in the workspace. */
const record = (file: string): string => `cat >> ${file}; echo >> ${file}`;

describe('SessionManager: listing past sessions', () => {
  it('titles each transcript by its first prompt, newest first; damaged lines, injected context and subagent prompts do not make the title', async () => {
    const { manager, transcriptDir, prompt } = await setup([{ text: 'One.' }, { text: 'Two.' }]);
    await prompt('What is in this repository?');
    const first = manager.current!;
    await manager.clear();
    await prompt('x'.repeat(100));
    const second = manager.current!;
    await manager.end('other');
    const write = (name: string, lines: readonly string[]): string => {
      const file = path.join(transcriptDir, name);
      writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    };
    const damaged = write('damaged.jsonl', [
      '{"type":"session","session_id":"damaged"}',
      '{"type":"user","agent_id":"main","content":"half a li',
      '{"type":"user","agent_id":"main","content":"<system-reminder>context from a hook</system-reminder>"}',
      '{"type":"user","agent_id":"agent-7","content":"a subagent prompt"}',
      '{"type":"user","agent_id":"main","content":"the real prompt"}',
    ]);
    const untitled = write('untitled.jsonl', ['{"type":"session","session_id":"untitled"}']);
    // Claude Code's own format: meta entries, sidechains and tool results are not the prompt; text blocks are.
    const claude = write('claude.jsonl', [
      '{"type":"summary","summary":"Fix the build","leafUuid":"u9"}',
      '{"type":"user","isMeta":true,"uuid":"u1","message":{"role":"user","content":"<command-name>/clear</command-name>"}}',
      '{"type":"user","isSidechain":true,"uuid":"u2","message":{"role":"user","content":"a subagent prompt"}}',
      '{"type":"user","uuid":"u3","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}',
      '{"type":"user","uuid":"u4","message":{"role":"user","content":[{"type":"text","text":"fix the build"}]}}',
    ]);
    writeFileSync(path.join(transcriptDir, 'notes.txt'), 'not a transcript');
    mkdirSync(path.join(transcriptDir, 'folder.jsonl'));
    const at = (file: string, seconds: number): void => utimesSync(file, seconds, seconds);
    at(first.transcriptPath, 1_000);
    at(second.transcriptPath, 4_000);
    at(damaged, 3_000);
    at(untitled, 2_000);
    at(claude, 1_500);

    expect(manager.list()).toEqual([
      { id: second.id, title: `${'x'.repeat(80)}…`, updatedAt: 4_000_000, sizeBytes: statSync(second.transcriptPath).size },
      { id: 'damaged', title: 'the real prompt', updatedAt: 3_000_000, sizeBytes: statSync(damaged).size },
      { id: 'untitled', title: undefined, updatedAt: 2_000_000, sizeBytes: statSync(untitled).size },
      { id: 'claude', title: 'fix the build', updatedAt: 1_500_000, sizeBytes: statSync(claude).size },
      { id: first.id, title: 'What is in this repository?', updatedAt: 1_000_000, sizeBytes: statSync(first.transcriptPath).size },
    ]);
  });

  it('a project without transcripts lists nothing', async () => {
    const { manager } = await setup([]);
    expect(manager.list()).toEqual([]);
  });
});

describe('SessionManager: resume', () => {
  it('a new window resumes a session: the conversation replays as it was shown, its next prompt continues it and SessionStart says resume', async () => {
    await w.settings({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: record('starts.jsonl') }] }] }, permissions: { allow: ['Bash'] } });
    const before = await setup([{ toolCalls: [{ id: 'call_1', name: 'Bash', input: { command: 'echo hi' } }] }, { text: 'Done.' }]);
    await before.prompt('run it');
    const { id, transcriptPath } = before.manager.current!;
    await before.manager.end('other');
    // A crash cut the last line in half.
    appendFileSync(transcriptPath, '{"type":"assistant","agent_id":"main","content":"half');

    const after = await setup([{ text: 'Continued.' }]);
    const resumed = await after.manager.resume(id);
    if (!resumed.ok) throw new Error(resumed.error);
    expect(resumed.session.id).toBe(id);
    expect(resumed.notices).toEqual([expect.stringMatching(new RegExp(`^${id}\\.jsonl line \\d+ skipped: truncated last line`))]);
    const replay = replayEvents(resumed.messages).map((e) =>
      e.type === 'toolStatus'
        ? { type: e.type, toolUseId: e.toolUseId, status: e.status, result: e.result }
        : e.type === 'toolCall'
          ? { type: e.type, toolName: e.toolName, input: e.input }
          : e.type === 'userPrompt'
            ? e
            : e.type === 'text'
              ? { type: e.type, delta: e.delta }
              : { type: e.type },
    );
    expect(replay).toEqual([
      { type: 'userPrompt', text: 'run it' },
      { type: 'assistantMessage' },
      { type: 'toolCall', toolName: 'Bash', input: { command: 'echo hi' } },
      { type: 'toolStatus', toolUseId: 'call_1', status: 'done', result: expect.stringContaining('hi') },
      { type: 'text', delta: 'Done.' },
      { type: 'assistantMessage' },
    ]);

    const result = await after.prompt('and now?');
    expect(result.status).toBe('completed');
    expect(after.manager.current?.id).toBe(id);
    expect(w.jsonLines('starts.jsonl').map((i) => [i.source, i.session_id])).toEqual([
      ['startup', id],
      ['resume', id],
    ]);
  });

  it('an unknown id or a path is refused with the reason, and the current session carries on untouched', async () => {
    await w.settings({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: record('ends.jsonl') }] }] } });
    const { manager, prompt } = await setup([{ text: 'One.' }, { text: 'Two.' }]);
    await prompt('hello');
    const current = manager.current;

    const missing = await manager.resume('no-such-session');
    const escape = await manager.resume('../../outside');

    expect(missing).toEqual({ ok: false, error: expect.stringContaining(`no session no-such-session for ${w.ws}`) });
    expect(escape).toEqual({ ok: false, error: expect.stringContaining('a session id is a file name, not a path') });
    expect(manager.current).toBe(current);
    expect(w.jsonLines('ends.jsonl')).toEqual([]);
    expect((await prompt('still here?')).status).toBe('completed');
  });

  it('New Chat ends the session with SessionEnd clear; the next prompt starts a fresh one with SessionStart clear', async () => {
    await w.settings({
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: record('starts.jsonl') }] }],
        SessionEnd: [{ hooks: [{ type: 'command', command: record('ends.jsonl') }] }],
      },
    });
    const { manager, prompt } = await setup([{ text: 'One.' }, { text: 'Two.' }]);
    await prompt('first');
    const first = manager.current!.id;
    await manager.clear();
    await prompt('second');
    const second = manager.current!.id;

    expect(second).not.toBe(first);
    expect(w.jsonLines('starts.jsonl').map((i) => [i.source, i.session_id])).toEqual([
      ['startup', first],
      ['clear', second],
    ]);
    expect(w.jsonLines('ends.jsonl').map((i) => [i.reason, i.session_id])).toEqual([['clear', first]]);
  });
});

describe('SessionManager: Re-run with This Input', () => {
  it('runs the hook again through the runner: started and finished reported once each, beside the original, same status; not written to the transcript', async () => {
    await w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${record('pre.jsonl')}; echo "no Bash today" >&2; exit 2` }] }] },
    });
    const { manager, observed, prompt } = await setup([
      { toolCalls: [{ id: 'call_1', name: 'Bash', input: { command: 'echo hi' } }] },
      { text: 'Understood.' },
    ]);
    await prompt('run it');
    const original = observed.find((o) => o.phase === 'finished' && o.record.event === 'PreToolUse')!.record;
    const transcript = manager.current!.transcriptPath;
    const hookLines = (): number =>
      readFileSync(transcript, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"type":"hook"')).length;
    const linesBefore = hookLines();
    const seen = observed.length;

    const rerun = await manager.rerun(original);

    const reported = observed.slice(seen);
    expect(reported.map((o) => [o.phase, o.record.runId, o.record.status])).toEqual([
      ['started', rerun?.runId, 'running'],
      ['finished', rerun?.runId, 'blocked'],
    ]);
    expect(rerun).toMatchObject({
      status: 'blocked',
      hookId: original.hookId,
      occurrenceId: original.occurrenceId,
      sessionId: original.sessionId,
      event: 'PreToolUse',
      outcome: { decision: 'deny', reason: expect.stringContaining('no Bash today') },
    });
    expect(rerun?.runId).not.toBe(original.runId);
    // The hook really ran again, with the input it had the first time.
    const inputs = w.jsonLines('pre.jsonl');
    expect(inputs).toHaveLength(2);
    expect(inputs[1]).toEqual(inputs[0]);
    expect(hookLines()).toBe(linesBefore);
  });

  it('a hook that is no longer configured is not run and nothing is reported', async () => {
    await w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${record('pre.jsonl')}; exit 2` }] }] } });
    const { runtime, manager, observed, prompt } = await setup([
      { toolCalls: [{ id: 'call_1', name: 'Bash', input: { command: 'echo hi' } }] },
      { text: 'Understood.' },
    ]);
    await prompt('run it');
    const original = observed.find((o) => o.phase === 'finished' && o.record.event === 'PreToolUse')!.record;
    await w.settings({});
    runtime.applyConfig(await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] })), { trusted: true });
    const seen = observed.length;

    expect(await manager.rerun(original)).toBeUndefined();
    expect(observed.length).toBe(seen);
    expect(w.jsonLines('pre.jsonl')).toHaveLength(1);
  });
});
