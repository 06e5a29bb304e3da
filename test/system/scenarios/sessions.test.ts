import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { parseJsonResult, waitForFile } from '../../support/cliHarness';
import { jsonLinesOf, recordTo, toolMessagesOf, useLifecycleEnv } from '../../support/lifecycleHarness';

const env = useLifecycleEnv();

/** Roles and contents of a request's messages after the system prompt. */
function conversationOf(messages: readonly Record<string, unknown>[] | undefined): string[] {
  return (messages ?? []).slice(1).map((m) => `${String(m.role)}: ${typeof m.content === 'string' ? m.content : ''}`);
}

describe('sessions and transcripts through hookwise -p (real process, local OpenAI server, command hooks)', () => {
  it('--resume continues the session: the model gets the previous conversation first, and SessionStart says resume', async () => {
    const { w } = env;
    const starts = path.join(w.ws, 'session-start.jsonl');
    await w.settings({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: await env.hook('record-start', recordTo(starts)) }] }] } });
    const s = await env.serve([textReply('Noted: pelican.'), textReply('The code word was pelican.')]);

    const first = parseJsonResult(await env.run(s, 'Remember the code word: pelican.'));
    const out = await env.run(s, 'What was the code word?', ['--resume', first.session_id]);
    const second = parseJsonResult(out);

    expect(out.code).toBe(0);
    expect(second).toMatchObject({ session_id: first.session_id, transcript_path: first.transcript_path, result: 'The code word was pelican.' });
    expect(conversationOf(s.requests[1]?.body.messages)).toEqual([
      'user: Remember the code word: pelican.',
      'assistant: Noted: pelican.',
      'user: What was the code word?',
    ]);
    expect(jsonLinesOf(starts).map((i) => [i.source, i.session_id, i.transcript_path])).toEqual([
      ['startup', first.session_id, first.transcript_path],
      ['resume', first.session_id, first.transcript_path],
    ]);
    // One transcript for the session, now holding both runs.
    expect(readdirSync(path.dirname(first.transcript_path)).filter((f) => f.endsWith('.jsonl'))).toEqual([`${first.session_id}.jsonl`]);
    expect(
      jsonLinesOf(first.transcript_path)
        .filter((l) => l.type === 'user')
        .map((l) => (l.message as { content: unknown }).content),
    ).toEqual(['Remember the code word: pelican.', 'What was the code word?']);
  });

  it('a PreToolUse hook reads transcript_path and finds the previous tool call — in the same run and after --resume', async () => {
    const { w } = env;
    const seen = path.join(w.ws, 'seen.jsonl');
    // "Deploy once": refuses a command that the transcript shows was already called.
    const once = await env.hook(
      'once',
      [
        "const lines = fs.readFileSync(input.transcript_path, 'utf8').split('\\n').filter(Boolean).map((l) => JSON.parse(l));",
        "const uses = lines.filter((l) => l.type === 'assistant').flatMap((l) => l.message.content.filter((b) => b.type === 'tool_use'));",
        'const earlier = uses.filter((l) => l.id !== input.tool_use_id && l.input && l.input.command === input.tool_input.command);',
        `fs.appendFileSync(${JSON.stringify(seen)}, JSON.stringify({ id: input.tool_use_id, current_in_transcript: uses.some((l) => l.id === input.tool_use_id), earlier: earlier.map((l) => l.id) }) + '\\n');`,
        "if (earlier.length > 0) { process.stderr.write('already ran as ' + earlier[0].id + ', see the transcript'); process.exit(2); }",
      ].join('\n'),
    );
    // A plain Bash allow: a prefix rule like Bash(echo:*) does not cover a redirect.
    await w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: once }] }] }, permissions: { allow: ['Bash'] } });
    const deploy = { command: 'echo deployed >> deploy.log' };
    const s = await env.serve([
      toolCallsReply([{ id: 'call_1', name: 'Bash', arguments: deploy }]),
      toolCallsReply([{ id: 'call_2', name: 'Bash', arguments: deploy }]),
      textReply('Deployed once.'),
      toolCallsReply([{ id: 'call_3', name: 'Bash', arguments: deploy }]),
      textReply('It was already deployed.'),
    ]);

    const first = parseJsonResult(await env.run(s, 'deploy'));
    const out = await env.run(s, 'deploy again', ['--resume', first.session_id]);

    expect(out.code).toBe(0);
    expect(w.read('deploy.log')).toBe('deployed\n');
    expect(jsonLinesOf(seen)).toEqual([
      // The transcript already has the call being judged when the hook runs.
      { id: 'call_1', current_in_transcript: true, earlier: [] },
      { id: 'call_2', current_in_transcript: true, earlier: ['call_1'] },
      { id: 'call_3', current_in_transcript: true, earlier: ['call_1', 'call_2'] },
    ]);
    expect(toolMessagesOf(s.requests[2])).toContainEqual({ tool_call_id: 'call_2', content: expect.stringContaining('already ran as call_1') });
    expect(toolMessagesOf(s.requests[4])).toContainEqual({ tool_call_id: 'call_3', content: expect.stringContaining('already ran as call_1') });
  });

  it("SIGKILL while a subagent's hook is running leaves a transcript of complete lines that resumes; the interrupted Agent call is answered", async () => {
    const { w } = env;
    const marker = path.join(w.ws, 'hook-running.pid');
    // A slow PreToolUse hook: says it is running (its pid, so the test can clean it up), then hangs.
    const slow = await env.hook('slow', `fs.writeFileSync(${JSON.stringify(marker)}, String(process.pid));\nsetTimeout(() => undefined, 20000);`);
    await w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: slow }] }] }, permissions: { allow: ['Bash(echo:*)'] } });
    const s = await env.serve([
      toolCallsReply([
        { id: 'call_agent', name: 'Agent', arguments: { description: 'check', prompt: 'Run echo checking.', subagent_type: 'general-purpose' } },
      ]),
      toolCallsReply([{ id: 'call_child_bash', name: 'Bash', arguments: { command: 'echo checking' } }]),
      textReply('Picked up after the crash.'),
    ]);

    const { child, done } = env.start(s, 'check things before the crash');
    await waitForFile(marker);
    env.killLater(Number(readFileSync(marker, 'utf8')));
    child.kill('SIGKILL');
    await done;

    const projects = path.join(w.hookwiseHome, 'projects');
    const files = readdirSync(projects, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.jsonl'));
    const mainFile = files.find((f) => !f.includes('subagents'));
    const childFile = files.find((f) => f.includes('subagents'));
    expect(mainFile).toBeDefined();
    expect(childFile).toBeDefined();
    const sessionId = path.basename(String(mainFile), '.jsonl');
    // Every line written before the kill is complete JSON, in both files.
    const mainLines = jsonLinesOf(path.join(projects, String(mainFile)));
    expect(blocksOf(mainLines)).toContainEqual(expect.objectContaining({ type: 'tool_use', id: 'call_agent', name: 'Agent' }));
    expect(mainLines).toContainEqual(expect.objectContaining({ type: 'hookwise', subtype: 'subagent', tool_use_id: 'call_agent' }));
    expect(blocksOf(mainLines).some((b) => b.type === 'tool_result')).toBe(false);
    expect(blocksOf(jsonLinesOf(path.join(projects, String(childFile))))).toContainEqual(
      expect.objectContaining({ type: 'tool_use', id: 'call_child_bash', input: { command: 'echo checking' } }),
    );

    const starts = path.join(w.ws, 'session-start.jsonl');
    await w.settings({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: await env.hook('record-start', recordTo(starts)) }] }] } });
    const out = await env.run(s, 'go on', ['--resume', sessionId]);

    expect(out.code).toBe(0);
    expect(out.stderr).toBe('');
    expect(parseJsonResult(out)).toMatchObject({ session_id: sessionId, result: 'Picked up after the crash.' });
    const messages = s.requests[2]?.body.messages ?? [];
    expect(conversationOf(messages)[0]).toBe('user: check things before the crash');
    // Only the main conversation is resumed, and its dangling Agent call gets an answer.
    expect(JSON.stringify(messages)).not.toContain('call_child_bash');
    expect(toolMessagesOf(s.requests[2])).toEqual([{ tool_call_id: 'call_agent', content: expect.stringMatching(/Not run/) }]);
    expect(conversationOf(messages).at(-1)).toBe('user: go on');
    expect(jsonLinesOf(starts)).toEqual([expect.objectContaining({ source: 'resume', session_id: sessionId })]);
  });
});

/** The content blocks of a Claude-format transcript's messages (tool_use, tool_result, text…), in order. */
function blocksOf(lines: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.flatMap((l) => {
    const content = (l.message as { content?: unknown } | undefined)?.content;
    return Array.isArray(content) ? (content as Record<string, unknown>[]) : [];
  });
}
