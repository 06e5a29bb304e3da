import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliRun } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';
import { hookCommand, HOOKS_DIR, parseJsonResult, runCliProcess } from '../../support/cliHarness';

const suite = useCliSuite();
const serve = suite.serve;

/** `hookwise -p PROMPT --model test-model --base-url URL --output-format json --max-steps 6 ...extra`. */
function run(s: OpenAiTestServer, prompt: string, ...extra: string[]): Promise<CliRun> {
  return suite.runPrompt(s, prompt, 6, ...extra);
}

/** The `tool` messages the server received in request `n`. */
function toolMessages(s: OpenAiTestServer, n: number): { tool_call_id: string; content: string }[] {
  const messages = s.requests[n]?.body.messages ?? [];
  return messages.filter((m) => m.role === 'tool').map((m) => ({ tool_call_id: String(m.tool_call_id), content: String(m.content) }));
}

function allText(s: OpenAiTestServer, n: number): string {
  return JSON.stringify(s.requests[n]?.body.messages ?? []);
}

const preToolUse = (command: string, matcher = 'Bash') => ({ PreToolUse: [{ matcher, hooks: [{ type: 'command', command }] }] });

describe('hookwise -p with command hooks from .claude/settings.json', () => {
  it('a PreToolUse hook denies rm: the file survives and the model gets the reason on its next request', async () => {
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings({ hooks: preToolUse(hookCommand('deny-rm.cjs')), permissions: { allow: ['Bash'] } });
    const s = await serve([toolCallsReply([{ id: 'call_rm', name: 'Bash', arguments: { command: 'rm keep.txt' } }]), textReply('OK, I will not delete it.')]);

    const out = await run(s, 'clean up');
    const json = parseJsonResult(out);

    expect(out.code).toBe(0);
    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(s.requests).toHaveLength(2);
    expect(toolMessages(s, 1)).toEqual([{ tool_call_id: 'call_rm', content: expect.stringContaining('rm is blocked by project policy') }]);
    expect(json).toMatchObject({ result: 'OK, I will not delete it.', is_error: false, status: 'completed', num_turns: 2 });
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: 'blocked', decision: 'deny' }));
  });

  it('a PreToolUse hook rewrites the command (JSON updatedInput): the rewritten command is what runs', async () => {
    await suite.w.settings({ hooks: preToolUse(hookCommand('rewrite-command.cjs')) });
    const s = await serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo original > out.txt' } }]), textReply('done')]);

    const out = await run(s, 'write it');

    expect(out.code).toBe(0);
    expect(suite.w.read('out.txt').trim()).toBe('rewritten');
  });

  it('a Stop hook forces one more step; with stop_hook_active it lets the agent finish', async () => {
    await suite.w.settings({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hookCommand('stop-once.cjs') }] }] } });
    const s = await serve([textReply('All done.'), textReply('Tests pass. Done now.')]);

    const out = await run(s, 'fix the bug');
    const json = parseJsonResult(out);

    expect(s.requests).toHaveLength(2);
    expect(allText(s, 1)).toContain('Run the tests before finishing.');
    expect(json).toMatchObject({ status: 'completed', result: 'Tests pass. Done now.' });
    expect(json.hook_runs.filter((r) => r.event === 'Stop').map((r) => r.status)).toEqual(['blocked', 'ok']);
  });

  it('a PostToolUse block reaches the model with the tool result', async () => {
    await suite.w.settings({
      hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand('post-block.cjs') }] }] },
      permissions: { allow: ['Bash(echo:*)'] },
    });
    const s = await serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo built' } }]), textReply('I will fix the lint errors.')]);

    const out = await run(s, 'build');

    expect(out.code).toBe(0);
    const [tool] = toolMessages(s, 1);
    expect(tool?.content).toContain('built');
    expect(tool?.content).toContain('lint found 3 errors in src/a.ts');
  });

  it('a hook reads transcript_path and finds the previous tool call', async () => {
    await suite.w.settings({
      hooks: preToolUse(hookCommand('previous-tool-calls.cjs', path.join(suite.w.ws, 'seen.jsonl'))),
      permissions: { allow: ['Bash(echo:*)'] },
    });
    const s = await serve([
      toolCallsReply([{ id: 'c1', name: 'Bash', arguments: { command: 'echo one' } }]),
      toolCallsReply([{ id: 'c2', name: 'Bash', arguments: { command: 'echo two' } }]),
      textReply('done'),
    ]);

    const out = await run(s, 'two steps');

    expect(out.code).toBe(0);
    expect(suite.w.jsonLines('seen.jsonl')).toEqual([
      { current: 'echo one', previous: [] },
      { current: 'echo two', previous: ['echo one'] },
    ]);
  });
});

describe('hookwise --model playground:FILE', () => {
  it('replays a scripted session through the real hooks and tools, with no network', async () => {
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings({ hooks: preToolUse(hookCommand('deny-rm.cjs')) });
    const script = path.resolve(HOOKS_DIR, '../scripts/clean-up.json');
    const out = await runCliProcess(suite.cli, suite.w, [
      '-p',
      'clean up',
      '--model',
      `playground:${script}`,
      '--output-format',
      'json',
      '--allowed-tools',
      'Bash(echo:*)',
      '--max-steps',
      '6',
    ]);
    const json = parseJsonResult(out);

    expect(out.code).toBe(0);
    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(json).toMatchObject({ result: 'Cleaned up without deleting anything.', status: 'completed', num_turns: 3 });
    expect(json.hook_runs.filter((r) => r.event === 'PreToolUse').map((r) => r.status)).toEqual(['blocked', 'ok']);
    const transcript = readFileSync(json.transcript_path, 'utf8');
    expect(transcript).toContain('rm is blocked by project policy');
    expect(transcript).toContain('"type":"hookwise","subtype":"session","session_id":"' + json.session_id);
    expect(transcript).toContain('Playground (scripted)');
  });
});

describe('hookwise --resume', () => {
  it('continues the session: the model sees the earlier turns, SessionStart says resume, hooks see the earlier tool call', async () => {
    const record = path.join(suite.w.ws, 'session-start.jsonl');
    const seen = path.join(suite.w.ws, 'seen.jsonl');
    await suite.w.settings({
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: hookCommand('record-input.cjs', record) }] }],
        ...preToolUse(hookCommand('previous-tool-calls.cjs', seen)),
      },
      permissions: { allow: ['Bash(echo:*)'] },
    });
    const s = await serve([
      toolCallsReply([{ id: 'first_call', name: 'Bash', arguments: { command: 'echo from-first-run' } }]),
      textReply('First run done.'),
      toolCallsReply([{ id: 'second_call', name: 'Bash', arguments: { command: 'echo from-second-run' } }]),
      textReply('Second run done.'),
    ]);

    const first = parseJsonResult(await run(s, 'first prompt'));
    expect(first.status).toBe('completed');
    const second = await run(s, 'second prompt', '--resume', first.session_id);
    const json = parseJsonResult(second);

    expect(second.code).toBe(0);
    expect(json).toMatchObject({ session_id: first.session_id, result: 'Second run done.', transcript_path: first.transcript_path });
    expect(suite.w.jsonLines('session-start.jsonl').map((l) => [l.source, l.session_id])).toEqual([
      ['startup', first.session_id],
      ['resume', first.session_id],
    ]);
    const firstRequestOfSecondRun = allText(s, 2);
    expect(firstRequestOfSecondRun).toContain('first prompt');
    expect(firstRequestOfSecondRun).toContain('from-first-run');
    expect(firstRequestOfSecondRun).toContain('First run done.');
    expect(suite.w.jsonLines('seen.jsonl').at(-1)).toEqual({ current: 'echo from-second-run', previous: ['echo from-first-run'] });
  });

  it('an unknown session id is a usage error (exit 2)', async () => {
    const s = await serve([]);
    const out = await run(s, 'hi', '--resume', 'no-such-session');
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('no session no-such-session');
    expect(s.requests).toHaveLength(0);
  });

  it('CLAUDE_ENV_FILE: what a SessionStart hook exports there is set for every later Bash command, and only SessionStart gets the variable', async () => {
    await suite.w.settings({
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: `echo 'export GREETING="hello from SessionStart"' >> "$CLAUDE_ENV_FILE"` }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "pre:${CLAUDE_ENV_FILE:-unset}" >> env-seen.txt' }] }],
      },
      permissions: { allow: ['Bash'] },
    });
    const s = await serve([
      toolCallsReply([{ id: 'call_1', name: 'Bash', arguments: { command: 'echo "greeting=$GREETING"' } }]),
      toolCallsReply([{ id: 'call_2', name: 'Bash', arguments: { command: 'echo "again=$GREETING"' } }]),
      textReply('done'),
    ]);
    const out = await run(s, 'greet');
    expect(out.code).toBe(0);
    expect(toolMessages(s, 1)[0]?.content).toContain('greeting=hello from SessionStart');
    expect(toolMessages(s, 2).at(-1)?.content).toContain('again=hello from SessionStart');
    expect(suite.w.read('env-seen.txt')).toBe('pre:unset\npre:unset\n');
  });

  it('CLAUDE_CODE_SHELL_PREFIX wraps hook commands and Bash commands alike', async () => {
    const wrapper = await suite.w.write('wrap.sh', '#!/bin/sh\necho "wrapped: $1" >> wrapped.log\nexec /bin/sh -c "$1"\n');
    await import('node:fs/promises').then((fs) => fs.chmod(wrapper, 0o755));
    await suite.w.settings({ hooks: preToolUse("echo 'hook ran' >&2"), permissions: { allow: ['Bash'] } });
    const s = await serve([toolCallsReply([{ id: 'call_1', name: 'Bash', arguments: { command: `echo "it's here"` } }]), textReply('done')]);
    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'go', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json'], {
      CLAUDE_CODE_SHELL_PREFIX: wrapper,
    });
    expect(out.code).toBe(0);
    expect(toolMessages(s, 1)[0]?.content).toContain("it's here");
    const log = suite.w.read('wrapped.log');
    expect(log.startsWith(`wrapped: echo 'hook ran' >&2\nwrapped: `)).toBe(true);
    // As in Claude Code, the wrapper sees the whole command the Bash tool runs: the user's command and the side channel that reports its final cwd.
    expect(log).toMatch(/wrapped: trap 'pwd -P > .*' EXIT\necho "it's here"\n$/);
  });

  it('an async PostToolUse hook does not hold up the agent; its additionalContext reaches the model on a later request', async () => {
    // The hook waits until the agent has moved on (the second Bash call creates `go`), then
    // answers; the second call waits for the answer, so the third request must carry it.
    const hook = `while [ ! -f go ]; do sleep 0.02; done; echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 2 warnings"}}'; touch hook-done`;
    await suite.w.settings({
      hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hook, async: true }] }] },
      permissions: { allow: ['Bash'] },
    });
    const s = await serve([
      toolCallsReply([{ id: 'call_1', name: 'Bash', arguments: { command: 'echo first' } }]),
      toolCallsReply([
        { id: 'call_2', name: 'Bash', arguments: { command: 'touch go; while [ ! -f hook-done ]; do sleep 0.02; done; sleep 0.3; echo second' } },
      ]),
      textReply('done'),
    ]);
    const out = await run(s, 'lint as you go');
    expect(out.code).toBe(0);
    // The first tool result came back before the hook could answer: the agent did not wait.
    expect(allText(s, 1)).not.toContain('lint: 2 warnings');
    expect(allText(s, 2)).toContain('PostToolUse hook additional context: lint: 2 warnings');
    // The second call's async run also finished (the CLI waits for async hooks before exiting).
    expect(
      parseJsonResult(out)
        .hook_runs.filter((r) => r.event === 'PostToolUse')
        .map((r) => r.status),
    ).toEqual(['ok', 'ok']);
  });
});
