import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { errorReply, textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { hookCommand, parseJsonResult, runCliProcess } from '../../support/cliHarness';

// Claude Code's 2026 events through the real CLI, each with a real hook process
// (record-and-reply.cjs records its stdin and prints what it is told to).

const suite = useCliSuite();
const serve = suite.serve;

const base = (s: OpenAiTestServer): string[] => ['--model', 'test-model', '--base-url', s.url, '--max-steps', '8', '--output-format', 'json'];

/** One matcher group running record-and-reply.cjs: records into `rel`, prints `stdout`, exits with `exit` writing `stderr`. */
function recorder(rel: string, options: { matcher?: string; stdout?: string; exit?: string; stderr?: string } = {}): Record<string, unknown> {
  const args = [path.join(suite.w.ws, rel), options.stdout ?? '', ...(options.exit ? [options.exit, options.stderr ?? ''] : [])];
  return {
    ...(options.matcher !== undefined ? { matcher: options.matcher } : {}),
    hooks: [{ type: 'command', command: hookCommand('record-and-reply.cjs', ...args) }],
  };
}

/** Every message text of the n-th model request, joined (to look for context the hooks added). */
function requestText(s: OpenAiTestServer, n: number): string {
  return JSON.stringify(s.requests[n]?.body.messages ?? []);
}

describe('hookwise -p: Claude Code 2026 events', () => {
  it('Bash keeps its working directory between calls (cd carries over) and CwdChanged reports old and new cwd', async () => {
    await suite.w.settings({ hooks: { CwdChanged: [recorder('cwd.jsonl')] } });
    const s = await serve([
      toolCallsReply([{ name: 'Bash', arguments: { command: 'mkdir -p sub/deeper && cd sub' } }]),
      toolCallsReply([{ name: 'Bash', arguments: { command: 'pwd > here.txt; cd deeper; echo moved' } }]),
      textReply('done'),
    ]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s), '--permission-mode', 'bypassPermissions']);

    expect(parseJsonResult(out)).toMatchObject({ status: 'completed' });
    // The second command started in sub/: its relative write landed there.
    expect(suite.w.read('sub/here.txt').trim()).toBe(path.join(suite.w.ws, 'sub'));
    const changes = suite.w.jsonLines('cwd.jsonl');
    expect(changes.map((c) => [c.old_cwd, c.new_cwd])).toEqual([
      [suite.w.ws, path.join(suite.w.ws, 'sub')],
      [path.join(suite.w.ws, 'sub'), path.join(suite.w.ws, 'sub', 'deeper')],
    ]);
    expect(changes[0]).toMatchObject({ hook_event_name: 'CwdChanged', cwd: path.join(suite.w.ws, 'sub') });
  });

  it('a cd out of the workspace is not kept: the next command starts at the root and the model is told', async () => {
    const s = await serve([
      toolCallsReply([{ name: 'Bash', arguments: { command: 'cd /' } }]),
      toolCallsReply([{ name: 'Bash', arguments: { command: 'pwd' } }]),
      textReply('done'),
    ]);

    await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s), '--permission-mode', 'bypassPermissions']);

    expect(requestText(s, 1)).toContain(`Shell cwd was reset to ${suite.w.ws}`);
    const pwdResult = s.requests[2]?.body.messages?.at(-1);
    expect(pwdResult).toMatchObject({ role: 'tool', content: suite.w.ws });
  });

  it('PermissionDenied fires when a deny rule refuses a call, with Claude fields; retry: true tells the model it may try again', async () => {
    const retry = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } });
    await suite.w.settings({
      permissions: { deny: ['Bash(rm:*)'] },
      hooks: { PermissionDenied: [recorder('denied.jsonl', { matcher: 'Bash', stdout: retry })] },
    });
    const s = await serve([toolCallsReply([{ id: 'call_rm', name: 'Bash', arguments: { command: 'rm -rf build' } }]), textReply('ok')]);

    await runCliProcess(suite.cli, suite.w, ['-p', 'clean', ...base(s), '--permission-mode', 'bypassPermissions']);

    const [denied] = suite.w.jsonLines('denied.jsonl');
    expect(denied).toMatchObject({
      hook_event_name: 'PermissionDenied',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build' },
      tool_use_id: 'call_rm',
      reason: expect.stringContaining('Bash(rm:*)'),
    });
    expect(suite.w.jsonLines('denied.jsonl')).toHaveLength(1);
    expect(requestText(s, 1)).toContain('may be retried');
  });

  it('PermissionDenied also fires for a PreToolUse hook denial and a plan-mode denial, once per denied call', async () => {
    await suite.w.settings({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `node -e 'process.stderr.write("no shell today"); process.exit(2)'` }] }],
        PermissionDenied: [recorder('denied.jsonl')],
      },
    });
    const s = await serve([
      toolCallsReply([
        { id: 'b1', name: 'Bash', arguments: { command: 'ls' } },
        { id: 'w1', name: 'Write', arguments: { file_path: 'x.txt', content: 'x' } },
      ]),
      textReply('ok'),
    ]);

    await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s), '--permission-mode', 'plan']);

    const denied = suite.w.jsonLines('denied.jsonl');
    expect(denied.map((d) => [d.tool_use_id, d.tool_name])).toEqual([
      ['b1', 'Bash'],
      ['w1', 'Write'],
    ]);
    expect(denied[0]?.reason).toContain('no shell today');
    expect(denied[1]).toMatchObject({ permission_mode: 'plan' });
    expect(suite.w.exists('x.txt')).toBe(false);
  });

  it('PostToolBatch runs once after all calls of one response, with tool_calls in order; its context reaches the next model call', async () => {
    await suite.w.write('notes.txt', 'hello notes\n');
    const context = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolBatch', additionalContext: 'batch checked by policy' } });
    await suite.w.settings({ hooks: { PostToolBatch: [recorder('batch.jsonl', { stdout: context })] } });
    const s = await serve([
      toolCallsReply([
        { id: 'c1', name: 'Read', arguments: { file_path: 'notes.txt' } },
        { id: 'c2', name: 'Bash', arguments: { command: 'echo two' } },
      ]),
      textReply('done'),
    ]);

    await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s), '--permission-mode', 'bypassPermissions']);

    const batches = suite.w.jsonLines('batch.jsonl');
    expect(batches).toHaveLength(1);
    const calls = batches[0]?.tool_calls as Record<string, unknown>[];
    expect(calls.map((c) => [c.tool_use_id, c.tool_name])).toEqual([
      ['c1', 'Read'],
      ['c2', 'Bash'],
    ]);
    expect(calls[1]).toMatchObject({ tool_input: { command: 'echo two' }, tool_response: expect.stringContaining('two') });
    expect(requestText(s, 1)).toContain('batch checked by policy');
  });

  it('StopFailure ends the turn on a model error (matcher = error type) and Stop does not fire', async () => {
    await suite.w.settings({
      hooks: {
        StopFailure: [recorder('failure-auth.jsonl', { matcher: 'authentication_failed' }), recorder('failure-rate.jsonl', { matcher: 'rate_limit' })],
        Stop: [recorder('stop.jsonl')],
      },
    });
    const s = await serve([errorReply(401, { message: 'bad key', type: 'invalid_request_error', code: 'invalid_api_key' })]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s)]);

    expect(out.code).toBe(1);
    const [failure] = suite.w.jsonLines('failure-auth.jsonl');
    expect(failure).toMatchObject({ hook_event_name: 'StopFailure', error: 'authentication_failed', error_details: expect.stringContaining('401') });
    expect(suite.w.exists('failure-rate.jsonl')).toBe(false);
    expect(suite.w.exists('stop.jsonl')).toBe(false);
  });

  it('TaskCreate fires TaskCreated; TaskCompleted exit 2 keeps the task open and its stderr goes to the model', async () => {
    await suite.w.settings({
      hooks: {
        TaskCreated: [recorder('created.jsonl')],
        TaskCompleted: [recorder('completed.jsonl', { exit: '2-once', stderr: 'the tests were not run' })],
      },
    });
    const s = await serve([
      toolCallsReply([{ name: 'TaskCreate', arguments: { subject: 'Fix the parser', description: 'Handle empty input' } }]),
      toolCallsReply([{ name: 'TaskUpdate', arguments: { taskId: '1', status: 'completed' } }]),
      toolCallsReply([{ name: 'TaskList', arguments: {} }]),
      toolCallsReply([{ name: 'TaskUpdate', arguments: { taskId: '1', status: 'completed' } }]),
      toolCallsReply([{ name: 'TaskList', arguments: {} }]),
      textReply('done'),
    ]);

    await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s)]);

    expect(suite.w.jsonLines('created.jsonl')).toEqual([
      expect.objectContaining({ hook_event_name: 'TaskCreated', task_id: '1', task_subject: 'Fix the parser', task_description: 'Handle empty input' }),
    ]);
    expect(s.requests[2]?.body.messages?.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('the tests were not run') });
    expect(s.requests[3]?.body.messages?.at(-1)).toMatchObject({ content: '#1 [pending] Fix the parser' });
    expect(s.requests[5]?.body.messages?.at(-1)).toMatchObject({ content: '#1 [completed] Fix the parser' });
    expect(suite.w.jsonLines('completed.jsonl')).toHaveLength(2);
  });

  it('--init runs Setup (trigger init) before SessionStart; its context reaches the model', async () => {
    const order = path.join(suite.w.ws, 'order.jsonl');
    const setupOut = JSON.stringify({ hookSpecificOutput: { hookEventName: 'Setup', additionalContext: 'dependencies installed' } });
    await suite.w.settings({
      hooks: {
        Setup: [{ matcher: 'init', hooks: [{ type: 'command', command: hookCommand('record-and-reply.cjs', order, setupOut) }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: hookCommand('record-and-reply.cjs', order) }] }],
      },
    });
    const s = await serve([textReply('ready'), textReply('again')]);

    await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s), '--init']);
    const withInit = suite.w.jsonLines('order.jsonl');
    await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s)]);

    expect(withInit.map((e) => [e.hook_event_name, e.trigger ?? e.source])).toEqual([
      ['Setup', 'init'],
      ['SessionStart', 'startup'],
    ]);
    expect(requestText(s, 0)).toContain('dependencies installed');
    // Without --init, Setup does not run.
    expect(suite.w.jsonLines('order.jsonl').map((e) => e.hook_event_name)).toEqual(['Setup', 'SessionStart', 'SessionStart']);
  });

  it('MessageDisplay fires once per shown assistant message, with the text', async () => {
    await suite.w.settings({ hooks: { MessageDisplay: [recorder('display.jsonl')] } });
    const s = await serve([textReply('Here is the answer.')]);

    await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s)]);

    expect(suite.w.jsonLines('display.jsonl')).toEqual([
      expect.objectContaining({ hook_event_name: 'MessageDisplay', delta: 'Here is the answer.', final: true, index: 0, turn_id: expect.any(String) }),
    ]);
  });

  it("FileChanged fires for a SessionStart hook's watchPaths (matcher = file name)", async () => {
    const envrc = await suite.w.write('.envrc', 'export A=1\n');
    const watch = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', watchPaths: [envrc] } });
    await suite.w.settings({
      hooks: {
        SessionStart: [recorder('start.jsonl', { stdout: watch })],
        FileChanged: [recorder('changed.jsonl', { matcher: '.envrc' }), recorder('other.jsonl', { matcher: 'package.json' })],
      },
    });
    const s = await serve([
      toolCallsReply([{ name: 'Bash', arguments: { command: 'echo "export B=2" >> .envrc; sleep 1' } }]),
      toolCallsReply([{ name: 'Bash', arguments: { command: 'sleep 0.5' } }]),
      textReply('done'),
    ]);

    await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s), '--permission-mode', 'bypassPermissions']);

    const changed = suite.w.jsonLines('changed.jsonl');
    expect(changed[0]).toMatchObject({ hook_event_name: 'FileChanged', file_path: envrc, event: 'change' });
    expect(suite.w.exists('other.jsonl')).toBe(false);
  });

  it('a FileChanged matcher that names files (.envrc) watches them in the working directory without any watchPaths', async () => {
    await suite.w.write('.envrc', 'export A=1\n');
    await suite.w.settings({ hooks: { FileChanged: [recorder('changed.jsonl', { matcher: '.envrc' })] } });
    const s = await serve([
      toolCallsReply([{ name: 'Bash', arguments: { command: 'echo "export B=2" >> .envrc; sleep 1' } }]),
      toolCallsReply([{ name: 'Bash', arguments: { command: 'sleep 0.5' } }]),
      textReply('done'),
    ]);

    await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s), '--permission-mode', 'bypassPermissions']);

    expect(suite.w.jsonLines('changed.jsonl')[0]).toMatchObject({
      hook_event_name: 'FileChanged',
      file_path: path.join(suite.w.ws, '.envrc'),
      event: 'change',
    });
  });

  it('config with Claude Code events that have no meaning here (TeammateIdle, WorktreeCreate) loads without a warning; they never fire', async () => {
    await suite.w.settings({ hooks: { TeammateIdle: [recorder('never.jsonl')], WorktreeCreate: [recorder('never.jsonl')], Stop: [recorder('stop.jsonl')] } });
    const s = await serve([textReply('done')]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'go', ...base(s)]);

    expect(out.code).toBe(0);
    expect(out.stderr).not.toMatch(/TeammateIdle|WorktreeCreate/);
    expect(suite.w.exists('never.jsonl')).toBe(false);
    expect(suite.w.jsonLines('stop.jsonl')).toHaveLength(1);
  });
});
