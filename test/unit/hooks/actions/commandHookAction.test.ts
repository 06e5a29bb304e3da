import { chmodSync, mkdtempSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CommandHookAction } from '../../../../src/hooks/actions/commandHookAction';
import type { HookActionContext } from '../../../../src/hooks/hookAction';
import type { HookEvent } from '../../../../src/hooks/hookEvent';
import { testHookAction } from '../../../../src/hooks/hookTester';
import { execaLauncher } from '../../../../src/shared/execaLauncher';
import { leanLauncher } from '../../../../src/shared/leanLauncher';
import { fixture, PidFile, survivors } from '../../../support/processProbe';

const cwd = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-cwd-')));
const projectDir = '/work/project-root';

function ctx(event: HookEvent, signal: AbortSignal = new AbortController().signal): HookActionContext {
  return { event, signal, timeoutMs: 60_000, cwd, projectDir, sessionId: 'sess-42' };
}

function input(event: HookEvent, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { session_id: 'sess-42', transcript_path: '/tmp/t.jsonl', cwd, hook_event_name: event, ...extra };
}

const bash = (command: string) => input('PreToolUse', { tool_name: 'Bash', tool_input: { command }, tool_use_id: 'tu1' });

const runFixture = (event: HookEvent, scenario: string, payload = input(event)) => new CommandHookAction(fixture(event, scenario)).run(payload, ctx(event));

let pidFile: PidFile | undefined;
afterEach(() => {
  pidFile?.dispose();
  pidFile = undefined;
});

beforeAll(() => {
  // git does not keep the mode of untracked checkouts everywhere; the fixtures need theirs.
  expect(statSync(fixture('PreToolUse', 'blocking')).mode & 0o111).not.toBe(0);
  chmodSync(fixture('PreToolUse', 'not-executable'), 0o644);
});

describe('CommandHookAction — shape', () => {
  it('kind, label, dedupKey and default timeout', () => {
    const action = new CommandHookAction('"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh');
    expect(action).toMatchObject({
      kind: 'command',
      label: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh',
      dedupKey: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh',
      defaultTimeoutMs: 60_000,
    });
  });
});

describe('CommandHookAction — Claude Code protocol through real processes', () => {
  it('PreToolUse blocking (exit 2) → deny with stderr', async () => {
    const r = await runFixture('PreToolUse', 'blocking', bash('rm -rf /'));
    expect(r).toMatchObject({ status: 'ok', outcome: { decision: 'deny', reason: 'Blocked: rm -rf is not allowed' } });
    expect(r.raw).toMatchObject({ exitCode: 2, stderr: 'Blocked: rm -rf is not allowed\n', stdout: '' });
  });
  it('exit 2 blocks even with allow JSON on stdout', async () => {
    const r = await runFixture('PreToolUse', 'blocking-with-json', bash('ls'));
    expect(r.outcome).toEqual({ decision: 'deny', reason: 'policy says no' });
    expect(r.raw?.stdout).toContain('permissionDecision');
  });
  it('json-deny → deny with permissionDecisionReason and systemMessage', async () => {
    const r = await runFixture('PreToolUse', 'json-deny', bash('cat .env'));
    expect(r).toMatchObject({ status: 'ok', outcome: { decision: 'deny', reason: 'Writes to .env are not allowed', systemMessage: 'json-deny fired' } });
  });
  it('json-allow-rewrite reads the event JSON on stdin → allow + updatedInput', async () => {
    const r = await runFixture('PreToolUse', 'json-allow-rewrite', bash('rm x'));
    expect(r).toMatchObject({ status: 'ok', outcome: { decision: 'allow', reason: 'safe rewrite', updatedInput: { command: 'echo rewritten' } } });
  });
  it('json-ask → ask', async () => {
    expect((await runFixture('PreToolUse', 'json-ask', bash('ls'))).outcome).toEqual({ decision: 'ask', reason: 'please confirm' });
  });
  it('malformed JSON is plain text', async () => {
    expect(await runFixture('PreToolUse', 'malformed-json', bash('ls'))).toMatchObject({ status: 'ok', outcome: {}, plainOutput: '{ this is not json' });
  });
  it('schema-invalid JSON → failed "JSON validation failed"', async () => {
    const r = await runFixture('PreToolUse', 'schema-invalid', bash('ls'));
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^JSON validation failed: /);
  });
  it('wrong-event-name → failed, no decision', async () => {
    const r = await runFixture('PreToolUse', 'wrong-event-name', bash('ls'));
    expect(r).toMatchObject({ status: 'failed', outcome: {} });
    expect(r.error).toContain('PostToolUse');
  });
  it('exit-1 → failed with stderr, fail-open', async () => {
    const r = await runFixture('PreToolUse', 'exit-1', bash('ls'));
    expect(r).toMatchObject({ status: 'failed', outcome: {}, error: 'Failed with non-blocking status code 1: something broke\nsecond line' });
    expect(r.raw?.exitCode).toBe(1);
  });
  it('UserPromptSubmit plain-context: env, cwd and stdin reach the hook', async () => {
    const payload = input('UserPromptSubmit', { prompt: 'hi there' });
    const r = await runFixture('UserPromptSubmit', 'plain-context', payload);
    expect(r.status).toBe('ok');
    expect(r.plainOutput).toBe([`project=${projectDir}`, 'session=sess-42', `cwd=${cwd}`, `input=${JSON.stringify(payload)}`].join('\n'));
  });
  it('UserPromptSubmit blocking and json-deny → deny (prompt dropped)', async () => {
    expect((await runFixture('UserPromptSubmit', 'blocking')).outcome).toEqual({ decision: 'deny', reason: 'Prompt contains a secret' });
    expect((await runFixture('UserPromptSubmit', 'json-deny')).outcome).toEqual({
      decision: 'deny',
      reason: 'No prompts about production',
      systemMessage: 'prompt blocked',
    });
  });
  it('Stop: blocking/json-deny → continue; json-stop → stop', async () => {
    expect((await runFixture('Stop', 'blocking')).outcome).toEqual({ decision: 'continue', reason: 'Tests are still failing: run npm test' });
    expect((await runFixture('Stop', 'json-deny')).outcome).toEqual({ decision: 'continue', reason: 'Update the changelog first' });
    expect((await runFixture('Stop', 'json-stop')).outcome).toEqual({ decision: 'stop', reason: 'Budget exhausted' });
    expect((await runFixture('SubagentStop', 'blocking')).outcome).toEqual({ decision: 'continue', reason: 'Subagent must summarise first' });
  });
  it('PostToolUse: blocking → deny; json rewrite → updatedResult + context', async () => {
    expect((await runFixture('PostToolUse', 'blocking')).outcome).toEqual({ decision: 'deny', reason: 'Lint failed on the written file' });
    expect((await runFixture('PostToolUse', 'json-allow-rewrite')).outcome).toEqual({ updatedResult: '[redacted]', additionalContext: 'output was redacted' });
  });
  it('SessionStart and PreCompact plain stdout; SessionStart JSON context', async () => {
    expect((await runFixture('SessionStart', 'plain-context')).plainOutput).toBe('Project uses pnpm');
    expect((await runFixture('SessionStart', 'json-context')).outcome).toEqual({ additionalContext: 'Remember the style guide' });
    expect((await runFixture('PreCompact', 'plain-context')).plainOutput).toBe('Keep the list of modified files');
  });
  it('Notification exit 2 → no decision, stderr for the user', async () => {
    expect(await runFixture('Notification', 'blocking')).toMatchObject({ status: 'ok', outcome: { systemMessage: 'notifier unavailable' } });
  });
  it('PermissionRequest allow+rewrite and deny+interrupt', async () => {
    expect((await runFixture('PermissionRequest', 'json-allow-rewrite')).outcome).toEqual({ decision: 'allow', updatedInput: { command: 'ls -la' } });
    expect((await runFixture('PermissionRequest', 'json-deny')).outcome).toEqual({ decision: 'stop', reason: 'Never on Fridays' });
  });
});

describe('CommandHookAction — bad input', () => {
  it('command not found (127) → failed with a readable message', async () => {
    const r = await new CommandHookAction('hookwise-no-such-command-xyz --flag').run(bash('ls'), ctx('PreToolUse'));
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^command not found: hookwise-no-such-command-xyz --flag: .*not found/);
    expect(r.raw?.exitCode).toBe(127);
  });
  it('not executable (126) → failed "permission denied"', async () => {
    const r = await runFixture('PreToolUse', 'not-executable', bash('ls'));
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^permission denied \(not executable\): .*not-executable\.sh: .*[Pp]ermission denied/);
  });
  it('exits by signal → failed "killed by SIGKILL"', async () => {
    // The script is a child of `sh -c`, which reports 128+9.
    const r = await runFixture('PreToolUse', 'exits-by-signal', bash('ls'));
    expect(r).toMatchObject({ status: 'failed', raw: { exitCode: 137 } });
    expect(r.error).toMatch(/^killed by SIGKILL \(exit code 137\): about to die/);
    // The shell itself killed: no exit code, the signal is recorded.
    const direct = await new CommandHookAction('echo bye >&2; kill -9 $$').run(bash('ls'), ctx('PreToolUse'));
    expect(direct).toMatchObject({ status: 'failed', error: 'killed by SIGKILL: bye', raw: { exitCode: null, signal: 'SIGKILL' } });
  });
  it('non-UTF-8 output is decoded with replacement characters', async () => {
    const r = await runFixture('PreToolUse', 'non-utf8', bash('ls'));
    expect(r).toMatchObject({ status: 'ok', plainOutput: 'bad \uFFFD\uFFFD bytes' });
  });
  it('ignores-stdin: a hook that never reads a large stdin is fine (EPIPE is not an error)', async () => {
    const r = await runFixture('PreToolUse', 'ignores-stdin', bash('x'.repeat(1_000_000)));
    expect(r).toEqual({ status: 'ok', outcome: {}, raw: { stdout: '', stderr: '', exitCode: 0 } });
  });
  it('flood: 100 MB on each stream → captured up to the cap, truncated flagged, and the hook failed (cut output never reads as "proceed")', async () => {
    const action = new CommandHookAction(fixture('PreToolUse', 'flood'), { maxOutputBytes: 64 * 1024 });
    // A first flood grows the heap to its working size (GC timing, not retention); the second
    // shows whether anything of the 200 MB is kept.
    await action.run(bash('ls'), ctx('PreToolUse'));
    const before = process.memoryUsage().rss;
    const r = await action.run(bash('ls'), ctx('PreToolUse'));
    const grown = process.memoryUsage().rss - before;
    expect(r).toMatchObject({ status: 'failed', failureReason: 'outputTooLarge', error: 'stdout exceeded 64 KiB; output cut, hook treated as failed' });
    expect(r.raw?.stdout.length).toBe(64 * 1024);
    expect(r.raw?.stderr.length).toBe(64 * 1024);
    expect(r.raw).toMatchObject({ stdoutTruncated: true, stderrTruncated: true, exitCode: 0 });
    // 200 MB went through; memory grew by far less.
    expect(grown).toBeLessThan(50 * 1024 * 1024);
  });
  it('flood with the default 1 MiB cap', async () => {
    const r = await runFixture('PreToolUse', 'flood', bash('ls'));
    expect(r.raw?.stdout.length).toBe(1024 * 1024);
    expect(r.raw?.stdoutTruncated).toBe(true);
  });
  it('a cwd that does not exist → failed with a clear message', async () => {
    const r = await new CommandHookAction('true').run(bash('ls'), { ...ctx('PreToolUse'), cwd: '/nonexistent/dir' });
    expect(r).toMatchObject({ status: 'failed', error: 'working directory does not exist: /nonexistent/dir' });
  });
  it('an input that cannot be serialized → failed', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const r = await new CommandHookAction('true').run(cyclic, ctx('PreToolUse'));
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^could not serialize the hook input/);
  });
});

// Hooks run on the lean launcher; the guarantees hold on the execa one too.
describe.each([leanLauncher, execaLauncher])('CommandHookAction — no process survives ($name launcher)', (launcher) => {
  it('forks-children: background children are killed when the hook exits normally', async () => {
    pidFile = new PidFile();
    const started = performance.now();
    const r = await new CommandHookAction(pidFile.command(fixture('PreToolUse', 'forks-children')), { launcher }).run(bash('ls'), ctx('PreToolUse'));
    expect(r).toMatchObject({ status: 'ok', plainOutput: 'forked' });
    // One child keeps stdout open: resolved after the short drain window, not after 100 s.
    expect(performance.now() - started).toBeLessThan(2_000);
    const pids = pidFile.pids();
    expect(pids).toHaveLength(2);
    expect(await survivors(pids)).toEqual([]);
  });
  it('forks-children-hangs: timeout kills the shell and its children; output so far is kept', async () => {
    pidFile = new PidFile();
    const action = new CommandHookAction(pidFile.command(fixture('PreToolUse', 'forks-children-hangs')), { launcher });
    const started = performance.now();
    const record = await testHookAction(action, bash('ls'), { cwd, projectDir, sessionId: 's', timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(record.timedOut).toBe(true);
    expect(record.result.status).toBe('cancelled');
    expect(record.result.error).toMatch(/^timed out after 300 ms/);
    const pids = pidFile.pids();
    expect(pids).toHaveLength(3);
    expect(await survivors(pids)).toEqual([]);
  });
  it('slow: user Stop (abort) kills it promptly and keeps the output so far', async () => {
    pidFile = new PidFile();
    const controller = new AbortController();
    const action = new CommandHookAction(pidFile.command(fixture('PreToolUse', 'slow')), { launcher });
    const pending = action.run(bash('ls'), ctx('PreToolUse', controller.signal));
    await waitFor(() => pidFile!.pids().length > 0);
    await new Promise((r) => setTimeout(r, 50));
    const abortedAt = performance.now();
    controller.abort();
    const r = await pending;
    expect(performance.now() - abortedAt).toBeLessThan(1_000);
    expect(r.status).toBe('cancelled');
    expect(r.raw?.stdout).toBe('started\n');
    expect(await survivors(pidFile.pids())).toEqual([]);
  });
  it('closes-stdout-early-keeps-running: the timeout still ends it, nothing leaks', async () => {
    pidFile = new PidFile();
    const action = new CommandHookAction(pidFile.command(fixture('PreToolUse', 'closes-stdout-early-keeps-running')), { launcher });
    const record = await testHookAction(action, bash('ls'), { cwd, projectDir, sessionId: 's', timeoutMs: 300 });
    expect(record.result.status).toBe('cancelled');
    expect(record.durationMs).toBeLessThan(2_000);
    expect(await survivors(pidFile.pids())).toEqual([]);
  });
  it('an already-aborted signal runs nothing', async () => {
    const r = await new CommandHookAction('echo hi', { launcher }).run(bash('ls'), ctx('PreToolUse', AbortSignal.abort()));
    expect(r.status).toBe('cancelled');
    expect(r.raw?.stdout).toBe('');
  });
  it('a SIGTERM-ignoring hook is SIGKILLed after the grace period', async () => {
    pidFile = new PidFile();
    const command = `HOOK_PIDS_FILE='${pidFile.file}'; trap '' TERM; echo $$ >> "$HOOK_PIDS_FILE"; while :; do sleep 0.05; done`;
    const record = await testHookAction(new CommandHookAction(command, { launcher }), bash('ls'), { cwd, projectDir, sessionId: 's', timeoutMs: 200 });
    expect(record.result.status).toBe('cancelled');
    expect(record.durationMs).toBeLessThan(1_500);
    expect(await survivors(pidFile.pids())).toEqual([]);
  });
});

async function waitFor(condition: () => boolean, withinMs = 3_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
