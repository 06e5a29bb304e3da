import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { transcriptDirFor } from '../../../src/agent/transcriptLocation';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliRun } from '../../support/cliHarness';
import { hookCommand, HOOKS_DIR, parseJsonResult } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

// What a hook reads on stdin, and what it finds at transcript_path, as in Claude Code
// (docs/hooks.md, "Input"): real CLI processes, real command hooks that record their stdin.

const suite = useCliSuite();

function run(s: OpenAiTestServer, prompt: string, ...extra: string[]): Promise<CliRun> {
  return suite.runPrompt(s, prompt, 8, ...extra);
}

/** A settings entry that records every input of `event` (matching all tools) to `file`. */
const record = (file: string, matcher?: string) => [
  { ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command: hookCommand('record-input.cjs', path.join(suite.w.ws, file)) }] },
];

describe('hook input fidelity through hookwise -p', () => {
  it('a call denied by a hook or by a rule fires no PostToolUseFailure; a call that ran and failed does', async () => {
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand('deny-rm.cjs') }] }],
        PostToolUseFailure: record('failures.jsonl', '*'),
      },
      permissions: { allow: ['Bash'], deny: ['Bash(cat:*)'] },
    });
    const s = await suite.serve([
      toolCallsReply([
        { id: 'call_rm', name: 'Bash', arguments: { command: 'rm keep.txt' } },
        { id: 'call_cat', name: 'Bash', arguments: { command: 'cat keep.txt' } },
        { id: 'call_false', name: 'Bash', arguments: { command: 'exit 3' } },
      ]),
      textReply('ok'),
    ]);

    const out = await run(s, 'try things');

    expect(out.code).toBe(0);
    expect(suite.w.jsonLines('failures.jsonl').map((i) => i.tool_use_id)).toEqual(['call_false']);
  });

  it("the main agent's inputs carry Claude Code's fields only: no agent_id/agent_type, permission_mode where Claude Code sends it (under hookwise at SessionStart), one prompt_id per prompt, Hookwise's own under hookwise", async () => {
    await suite.w.settings({
      hooks: {
        SessionStart: record('inputs.jsonl'),
        UserPromptSubmit: record('inputs.jsonl'),
        PreToolUse: record('inputs.jsonl', '*'),
        PostToolUse: record('inputs.jsonl', '*'),
        Stop: record('inputs.jsonl'),
      },
      permissions: { allow: ['Bash(echo:*)'] },
    });
    const s = await suite.serve([toolCallsReply([{ id: 'call_echo', name: 'Bash', arguments: { command: 'echo hi' } }]), textReply('done')]);

    const out = await run(s, 'say hi', '--permission-mode', 'acceptEdits');

    expect(out.code).toBe(0);
    const inputs = suite.w.jsonLines('inputs.jsonl');
    expect(inputs.map((i) => i.hook_event_name)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop']);
    for (const input of inputs) {
      expect(input).not.toHaveProperty('agent_id');
      expect(input).not.toHaveProperty('agent_type');
      expect(input).not.toHaveProperty('parent_agent_id');
      expect(input).toMatchObject({ hookwise: { agent_id: 'main', parent_agent_id: null, agent_type: 'main' } });
    }
    const [start, ...duringPrompt] = inputs;
    expect(start).not.toHaveProperty('prompt_id');
    // Claude Code sends no permission_mode at SessionStart; Hookwise keeps it under hookwise there.
    expect(start).not.toHaveProperty('permission_mode');
    expect(start).toMatchObject({ hookwise: { permission_mode: 'acceptEdits' } });
    for (const input of duringPrompt) expect(input).toMatchObject({ permission_mode: 'acceptEdits' });
    const promptIds = new Set(duringPrompt.map((i) => i.prompt_id));
    expect(promptIds.size).toBe(1);
    expect([...promptIds][0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("tool_response has Claude Code's shape per tool (Write, Edit, Bash, Read), while the model still gets text", async () => {
    const existing = await suite.w.write('notes.txt', 'alpha\nbeta\ngamma\n');
    await suite.w.settings({ hooks: { PostToolUse: record('post.jsonl', '*') }, permissions: { allow: ['Write', 'Edit', 'Bash', 'Read'] } });
    const created = path.join(suite.w.ws, 'new.txt');
    const s = await suite.serve([
      toolCallsReply([{ id: 'w1', name: 'Write', arguments: { file_path: 'new.txt', content: 'one\ntwo\n' } }]),
      toolCallsReply([{ id: 'w2', name: 'Write', arguments: { file_path: 'new.txt', content: 'one\nTWO\n' } }]),
      toolCallsReply([{ id: 'e1', name: 'Edit', arguments: { file_path: 'notes.txt', old_string: 'beta', new_string: 'BETA' } }]),
      toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'echo out; echo err >&2' } }]),
      toolCallsReply([{ id: 'r1', name: 'Read', arguments: { file_path: 'notes.txt' } }]),
      textReply('done'),
    ]);

    const out = await run(s, 'edit files');

    expect(out.code).toBe(0);
    const byId = Object.fromEntries(suite.w.jsonLines('post.jsonl').map((i) => [String(i.tool_use_id), i.tool_response]));
    expect(byId.w1).toEqual({ type: 'create', filePath: created, content: 'one\ntwo\n', structuredPatch: [], originalFile: null, userModified: false });
    expect(byId.w2).toEqual({
      type: 'update',
      filePath: created,
      content: 'one\nTWO\n',
      structuredPatch: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' one', '-two', '+TWO'] }],
      originalFile: 'one\ntwo\n',
      userModified: false,
    });
    expect(byId.e1).toEqual({
      filePath: existing,
      oldString: 'beta',
      newString: 'BETA',
      originalFile: 'alpha\nbeta\ngamma\n',
      structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [' alpha', '-beta', '+BETA', ' gamma'] }],
      userModified: false,
      replaceAll: false,
    });
    expect(byId.b1).toEqual({ stdout: 'out', stderr: 'err', interrupted: false, isImage: false, noOutputExpected: false });
    // Counted as Claude Code counts: the final newline starts a 4th (empty) line.
    expect(byId.r1).toEqual({ type: 'text', file: { filePath: existing, content: 'alpha\nBETA\ngamma\n', numLines: 4, startLine: 1, totalLines: 4 } });
    // What the model saw is unchanged: text.
    const readResult = (s.requests[5]?.body.messages ?? []).find((m) => m.role === 'tool' && m.tool_call_id === 'r1');
    expect(String(readResult?.content)).toBe('     1\talpha\n     2\tBETA\n     3\tgamma');
  });

  it("after a PreToolUse updatedInput, PostToolUse's tool_input is the replacement as the hook wrote it; the call ran with it", async () => {
    const hook = await suite.w.write(
      'hooks/replace.cjs',
      "process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo replaced > out.txt' } } }));",
    );
    await suite.w.settings({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(hook)}` }] }],
        PostToolUse: record('post.jsonl', 'Bash'),
      },
    });
    const s = await suite.serve([
      toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'echo original > out.txt', description: 'write a file', timeout: 5000 } }]),
      textReply('done'),
    ]);

    const out = await run(s, 'write');

    expect(out.code).toBe(0);
    expect(suite.w.read('out.txt').trim()).toBe('replaced');
    expect(suite.w.jsonLines('post.jsonl').map((i) => i.tool_input)).toEqual([{ command: 'echo replaced > out.txt' }]);
  });

  it("the transcript is Claude Code's JSONL: a python hook reading it as Claude-format readers do finds the prompt, the tools used and the last assistant message", async () => {
    const reader = [process.env.PYTHON ?? 'python3', path.join(HOOKS_DIR, 'claude_transcript_reader.py'), path.join(suite.w.ws, 'found.jsonl')]
      .map((a) => JSON.stringify(a))
      .join(' ');
    await suite.w.settings({
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: "echo 'Project rule: be brief.'" }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand('record-input.cjs', path.join(suite.w.ws, 'pre.jsonl')) }] }],
        Stop: [{ hooks: [{ type: 'command', command: reader }] }],
      },
      permissions: { allow: ['Bash(echo:*)', 'Read'] },
    });
    await suite.w.write('a.txt', 'x\n');
    const s = await suite.serve([
      toolCallsReply([
        { id: 'c1', name: 'Bash', arguments: { command: 'echo one' } },
        { id: 'c2', name: 'Read', arguments: { file_path: 'a.txt' } },
      ]),
      textReply('All checked: one and x.'),
    ]);

    const out = await run(s, 'check the workspace');
    const json = parseJsonResult(out);

    expect(out.code).toBe(0);
    expect(suite.w.jsonLines('found.jsonl')).toEqual([
      { prompt: 'check the workspace', tools: ['Bash', 'Read'], last_assistant_text: 'All checked: one and x.', stop_input_last: 'All checked: one and x.' },
    ]);
    expect(json.transcript_path.endsWith(`${json.session_id}.jsonl`)).toBe(true);
    // A tool result entry carries the tool's structured result, as Claude Code's toolUseResult.
    const entries = readFileSync(json.transcript_path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const bashResult = entries.find((e) => JSON.stringify(e.message ?? null).includes('"tool_use_id":"c1"'));
    expect(bashResult).toMatchObject({
      type: 'user',
      sessionId: json.session_id,
      toolUseResult: { stdout: 'one', stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
    });
  });

  it('a session whose transcript is in the older Hookwise line format still resumes: the model gets its conversation', async () => {
    const dir = transcriptDirFor(suite.w.ws, { HOOKWISE_HOME: suite.w.hookwiseHome });
    mkdirSync(dir, { recursive: true });
    copyFileSync(path.resolve(HOOKS_DIR, '../../transcripts/legacy-session.jsonl'), path.join(dir, 'legacy-session.jsonl'));
    const s = await suite.serve([textReply('The code word was albatross.')]);

    const out = await run(s, 'What was the code word?', '--resume', 'legacy-session');

    expect(out.code).toBe(0);
    const conversation = (s.requests[0]?.body.messages ?? []).filter((m) => m.role !== 'system').map((m) => [m.role, m.content ?? null]);
    expect(conversation).toEqual([
      ['user', 'Remember the code word: albatross.'],
      ['assistant', 'Checking.'],
      ['tool', 'stored'],
      ['assistant', 'Noted: albatross.'],
      ['user', 'What was the code word?'],
    ]);
  });
});
