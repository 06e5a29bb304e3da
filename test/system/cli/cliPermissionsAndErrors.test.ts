import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer, ScriptedReply } from '../../support/openAiTestServer';
import { errorReply, textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliRun } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';
import { hookCommand, parseJsonResult, runCliProcess } from '../../support/cliHarness';

const suite = useCliSuite();
const serve = suite.serve;

function run(s: OpenAiTestServer, prompt: string, ...extra: string[]): Promise<CliRun> {
  return runCliProcess(suite.cli, suite.w, ['-p', prompt, '--model', 'test-model', '--base-url', s.url, '--max-steps', '6', ...extra]);
}

function toolContent(s: OpenAiTestServer, n: number): string[] {
  return (s.requests[n]?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
}

const bashCall = (command: string): ScriptedReply => toolCallsReply([{ name: 'Bash', arguments: { command } }]);

describe('permission rules and modes, headless', () => {
  it('permissions.allow Bash(echo:*) runs a matching command without asking', async () => {
    await suite.w.settings({ permissions: { allow: ['Bash(echo:*)'] } });
    const s = await serve([bashCall('echo hello-from-rules'), textReply('ok')]);
    const out = await run(s, 'say hello', '--output-format', 'json');
    expect(out.code).toBe(0);
    expect(toolContent(s, 1)).toEqual([expect.stringContaining('hello-from-rules')]);
  });

  it('permissions.deny blocks the command even with --permission-mode bypassPermissions', async () => {
    await suite.w.settings({ permissions: { deny: ['Bash(touch:*)'] } });
    const s = await serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await run(s, 'make a file', '--permission-mode', 'bypassPermissions');
    expect(out.code).toBe(0);
    expect(suite.w.exists('made.txt')).toBe(false);
    expect(toolContent(s, 1)[0]).toContain('denied by permission rule Bash(touch:*)');
  });

  it('without a rule, the ask becomes a deny (no one to ask headless) and the model is told', async () => {
    const s = await serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await run(s, 'make a file');
    expect(out.code).toBe(0);
    expect(suite.w.exists('made.txt')).toBe(false);
    expect(toolContent(s, 1)[0]).toContain('headless');
  });

  it('--allowed-tools allows what no settings file does', async () => {
    const s = await serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await run(s, 'make a file', '--allowed-tools', 'Bash(touch:*)');
    expect(out.code).toBe(0);
    expect(suite.w.exists('made.txt')).toBe(true);
  });

  it('--permission-mode plan denies Write', async () => {
    const s = await serve([toolCallsReply([{ name: 'Write', arguments: { file_path: 'plan.txt', content: 'x' } }]), textReply('ok')]);
    const out = await run(s, 'write a file', '--permission-mode', 'plan', '--allowed-tools', 'Write');
    expect(out.code).toBe(0);
    expect(suite.w.exists('plan.txt')).toBe(false);
    expect(toolContent(s, 1)[0]).toContain('plan mode');
  });

  it('--permission-mode bypassPermissions runs Bash', async () => {
    const s = await serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await run(s, 'make a file', '--permission-mode', 'bypassPermissions');
    expect(out.code).toBe(0);
    expect(suite.w.exists('made.txt')).toBe(true);
  });

  it("a hook's ask is denied headless even in bypassPermissions mode", async () => {
    const ask = `node -e 'process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"ask",permissionDecisionReason:"needs a human"}}))'`;
    await suite.w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: ask }] }] } });
    const s = await serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await run(s, 'make a file', '--permission-mode', 'bypassPermissions');
    expect(out.code).toBe(0);
    expect(suite.w.exists('made.txt')).toBe(false);
  });
});

describe('model endpoint behaviour through the CLI', () => {
  it('a malformed tool-call argument becomes an error result the model can correct; the run continues', async () => {
    const s = await serve([toolCallsReply([{ id: 'broken', name: 'Bash', arguments: '{"command": "ls' }]), bashCall('echo fixed'), textReply('recovered')]);
    const out = await run(s, 'list', '--output-format', 'json', '--allowed-tools', 'Bash(echo:*)');
    const json = parseJsonResult(out);
    expect(out.code).toBe(0);
    expect(toolContent(s, 1)).toEqual([expect.stringContaining('not valid JSON')]);
    expect(toolContent(s, 2)[1]).toContain('fixed');
    expect(json).toMatchObject({ result: 'recovered', status: 'completed', num_turns: 3 });
  });

  it('a 500 is retried and the run succeeds', async () => {
    const s = await serve([errorReply(500, { message: 'upstream hiccup', headers: { 'retry-after-ms': '1' } }), textReply('after retry')]);
    const out = await run(s, 'hi', '--output-format', 'json');
    expect(out.code).toBe(0);
    expect(s.requests).toHaveLength(2);
    expect(parseJsonResult(out).result).toBe('after retry');
    expect(out.stderr).toContain('retrying');
  });

  it('finds the model and the endpoint in HOOKWISE_MODEL and OPENAI_BASE_URL, and sends the key from OPENAI_API_KEY', async () => {
    const s = await serve([textReply('from env')]);
    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'hi'], { HOOKWISE_MODEL: 'env-model', OPENAI_BASE_URL: s.url, OPENAI_API_KEY: 'env-key' });
    expect(out).toMatchObject({ code: 0, stdout: 'from env\n' });
    expect(s.requests[0]?.body.model).toBe('env-model');
    expect(s.requests[0]?.headers.authorization).toBe('Bearer env-key');
  });

  it('a 401 exits 1 with a message that says what to fix on stderr', async () => {
    const s = await serve([textReply('never')], { apiKey: 'the-right-key' });
    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'hi', '--model', 'test-model', '--base-url', s.url], { OPENAI_API_KEY: 'a-wrong-key' });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('401');
    expect(out.stderr).toContain('OPENAI_API_KEY');
    expect(s.requests).toHaveLength(1);
  });
});

describe('command line and output formats', () => {
  it.each([
    ['no prompt', []],
    ['an unknown option', ['-p', 'hi', '--frobnicate']],
    ['a bad permission mode', ['-p', 'hi', '--permission-mode', 'yolo']],
    ['a bad output format', ['-p', 'hi', '--output-format', 'xml']],
    ['a bad --max-steps', ['-p', 'hi', '--max-steps', 'zero']],
  ])('bad usage (%s) exits 2 with the usage on stderr', async (_name, args) => {
    const out = await runCliProcess(suite.cli, suite.w, args);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('Usage: hookwise -p');
    expect(out.stdout).toBe('');
  });

  it('text output prints the final answer', async () => {
    const s = await serve([textReply('Just the answer.')]);
    const out = await run(s, 'hi');
    expect(out).toMatchObject({ code: 0, stdout: 'Just the answer.\n' });
  });

  it('stream-json prints one JSON object per line: text, tool call, hook runs, and the result last', async () => {
    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand('deny-rm.cjs') }] }] },
      permissions: { allow: ['Bash(echo:*)'] },
    });
    const s = await serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo streamed' } }], { text: 'Let me check.' }), textReply('Finished.')]);
    const out = await run(s, 'stream it', '--output-format', 'stream-json');

    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split('\n');
    const objects = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const types = objects.map((o) => o.type);
    expect(types).toContain('text');
    expect(types).toContain('tool_call');
    expect(objects).toContainEqual(expect.objectContaining({ type: 'hook_run', event: 'PreToolUse', status: 'ok' }));
    expect(objects).toContainEqual(expect.objectContaining({ type: 'tool_status', status: 'done', result: expect.stringContaining('streamed') }));
    expect(objects.at(-1)).toMatchObject({ type: 'result', result: 'Finished.', is_error: false, status: 'completed' });
  });

  it('a run stopped by --max-steps is an error (exit 1) and says why', async () => {
    const s = await serve([bashCall('echo 1'), bashCall('echo 2'), bashCall('echo 3')]);
    const out = await runCliProcess(suite.cli, suite.w, [
      '-p',
      'loop',
      '--model',
      'test-model',
      '--base-url',
      s.url,
      '--max-steps',
      '2',
      '--allowed-tools',
      'Bash(echo:*)',
      '--output-format',
      'json',
    ]);
    const json = parseJsonResult(out);
    expect(out.code).toBe(1);
    expect(s.requests).toHaveLength(2);
    expect(json).toMatchObject({ is_error: true, status: 'stopped', reason: expect.stringContaining('maximum of 2 steps') });
  });

  it("never reads the user's real ~/.claude: only the HOME it is given", async () => {
    await suite.w.write('../home/.claude/settings.json', JSON.stringify({ permissions: { allow: ['Bash(touch:*)'] } }));
    const s = await serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await run(s, 'make a file');
    expect(out.code).toBe(0);
    expect(suite.w.exists('made.txt')).toBe(true);
  });
});
