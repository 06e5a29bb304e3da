import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { hookCommand, parseJsonResult, runCliProcess, startCliProcess, waitForFile } from '../../support/cliHarness';

const suite = useCliSuite();
const serve = suite.serve;

const base = (s: OpenAiTestServer): string[] => ['--model', 'test-model', '--base-url', s.url, '--max-steps', '6', '--output-format', 'json'];

/** The one transcript file the CLI wrote under HOOKWISE_HOME. */
function onlyTranscript(): { file: string; sessionId: string } {
  const projects = path.join(suite.w.hookwiseHome, 'projects');
  const [slug] = readdirSync(projects);
  const dir = path.join(projects, String(slug));
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return { file: path.join(dir, String(files[0])), sessionId: String(files[0]).replace(/\.jsonl$/, '') };
}

describe('hookwise -p process lifecycle', () => {
  it('Ctrl+C during a tool stops the run as cancelled (exit 1) and still ends the session', async () => {
    const ended = path.join(suite.w.ws, 'session-end.jsonl');
    await suite.w.settings({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: hookCommand('record-input.cjs', ended) }] }] } });
    const s = await serve([
      toolCallsReply([{ name: 'Bash', arguments: { command: 'touch started.marker; sleep 8; touch finished.marker' } }]),
      textReply('never'),
    ]);
    const { child, done } = startCliProcess(suite.cli, suite.w, ['-p', 'wait', ...base(s), '--permission-mode', 'bypassPermissions']);
    await waitForFile(path.join(suite.w.ws, 'started.marker'));
    child.kill('SIGINT');
    const out = await done;

    expect(out.code).toBe(1);
    expect(parseJsonResult(out)).toMatchObject({ status: 'cancelled', is_error: true });
    expect(suite.w.exists('finished.marker')).toBe(false);
    expect(s.requests).toHaveLength(1);
    expect(suite.w.jsonLines('session-end.jsonl')).toHaveLength(1);
  });

  it('a process killed mid-tool leaves a transcript that resumes; the interrupted call is answered', async () => {
    const s = await serve([
      toolCallsReply([{ id: 'killed_call', name: 'Bash', arguments: { command: 'touch started.marker; sleep 3' } }]),
      textReply('Resumed fine.'),
    ]);
    const { child, done } = startCliProcess(suite.cli, suite.w, ['-p', 'first prompt before the crash', ...base(s), '--permission-mode', 'bypassPermissions']);
    await waitForFile(path.join(suite.w.ws, 'started.marker'));
    child.kill('SIGKILL');
    await done;
    const { sessionId } = onlyTranscript();

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'go on', ...base(s), '--resume', sessionId]);

    expect(out.code).toBe(0);
    expect(parseJsonResult(out)).toMatchObject({ session_id: sessionId, result: 'Resumed fine.' });
    const messages = s.requests[1]?.body.messages ?? [];
    expect(JSON.stringify(messages)).toContain('first prompt before the crash');
    expect(messages).toContainEqual(expect.objectContaining({ role: 'tool', tool_call_id: 'killed_call' }));
  });

  it('a truncated last transcript line is skipped on resume with a notice on stderr', async () => {
    const s = await serve([textReply('First.'), textReply('Second.')]);
    const first = parseJsonResult(await runCliProcess(suite.cli, suite.w, ['-p', 'one', ...base(s)]));
    const { appendFileSync } = await import('node:fs');
    appendFileSync(first.transcript_path, '{"type":"assistant","agent_id":"main","content":"half a li');

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'two', ...base(s), '--resume', first.session_id]);

    expect(out.code).toBe(0);
    expect(out.stderr).toMatch(/line \d+ skipped: truncated last line/);
    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain('First.');
  });

  it('a UserPromptSubmit hook that blocks (exit 2) drops the prompt: no model call, exit 1, the reason in the result', async () => {
    const blockAll = `node -e 'process.stderr.write("prompts are frozen today"); process.exit(2)'`;
    await suite.w.settings({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: blockAll }] }] } });
    const s = await serve([textReply('never')]);
    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'hello', ...base(s)]);

    expect(out.code).toBe(1);
    expect(s.requests).toHaveLength(0);
    expect(parseJsonResult(out)).toMatchObject({ status: 'blocked', is_error: true, result: expect.stringContaining('prompts are frozen today') });
  });

  it('--settings adds a settings file on top of the project ones', async () => {
    const extra = await suite.w.write('extra-settings.json', JSON.stringify({ permissions: { allow: ['Bash(touch:*)'] } }));
    const s = await serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'touch from-extra.txt' } }]), textReply('ok')]);
    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'make it', ...base(s), '--settings', extra]);
    expect(out.code).toBe(0);
    expect(suite.w.exists('from-extra.txt')).toBe(true);
  });

  it('permissions.defaultMode from the settings applies when no --permission-mode is given', async () => {
    await suite.w.settings({ permissions: { defaultMode: 'plan', allow: ['Write'] } });
    const s = await serve([toolCallsReply([{ name: 'Write', arguments: { file_path: 'p.txt', content: 'x' } }]), textReply('ok')]);
    await runCliProcess(suite.cli, suite.w, ['-p', 'write', ...base(s)]);
    expect(suite.w.exists('p.txt')).toBe(false);
  });

  it('the second run loads the CLI from the compile cache under ~/.cache/hookwise and answers the same', async () => {
    const s = await serve((_request, n) => textReply(`answer ${n % 2}`));
    const first = await runCliProcess(suite.cli, suite.w, ['-p', 'hi', ...base(s)]);
    const cacheDir = path.join(suite.w.home, '.cache', 'hookwise');
    const cached = readdirSync(cacheDir).filter((f) => f.endsWith('.bin'));
    expect(cached).toHaveLength(1);
    const second = await runCliProcess(suite.cli, suite.w, ['-p', 'hi', ...base(s)]);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect([parseJsonResult(first).result, parseJsonResult(second).result]).toEqual(['answer 0', 'answer 1']);
    // Used, not rewritten: still the one file.
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.bin'))).toEqual(cached);
  });
});
