import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer, ScriptedReply } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { parseJsonResult } from '../../support/cliHarness';
import type { PtyOptions, PtyRun } from './ptyCli';
import { runCliInPty } from './ptyCli';
import { useCliSuite } from '../../support/cliSuite';

/**
 * The CLI asking at a real pseudo-terminal (python3's pty): the question goes to the
 * terminal on stderr, the answer is typed there, stdout keeps only the result.
 */

const suite = useCliSuite();

function runInPty(s: OpenAiTestServer, extra: readonly string[], options: PtyOptions = {}): Promise<PtyRun> {
  const args = ['-p', 'do it', '--model', 'test-model', '--base-url', s.url, '--max-steps', '6', '--output-format', 'json', ...extra];
  return runCliInPty(suite.cli, suite.w, args, options);
}

const bashCall = (command: string): ScriptedReply => toolCallsReply([{ name: 'Bash', arguments: { command } }]);
const answer = (send: string, expect = 'Answer [y/s/n]: ') => ({ expect, send });

function toolContent(s: OpenAiTestServer, n: number): string[] {
  return (s.requests[n]?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
}

function questions(tty: string): number {
  return tty.split('Allow Bash for the main agent?').length - 1;
}

describe('asking at the terminal (hookwise -p on a TTY)', () => {
  it('shows the tool, the agent, the command and the reason; "y" runs the Bash call once; stdout stays one JSON object', async () => {
    const s = await suite.serve([bashCall('touch made.txt'), textReply('done')]);
    const out = await runInPty(s, [], { steps: [answer('y\r')] });
    expect(out.unmet).toEqual([]);
    expect(out.code).toBe(0);
    expect(out.tty).toContain('Allow Bash for the main agent?');
    expect(out.tty).toContain('$ touch made.txt');
    expect(out.tty).toContain('Reason: ');
    expect(out.tty).toMatch(/\[y\] allow once +\[s\] allow Bash\(touch:\*\) for this session +\[n\] deny/);
    expect(suite.w.exists('made.txt')).toBe(true);
    expect(parseJsonResult({ code: out.code, stdout: out.stdout, stderr: out.tty })).toMatchObject({ result: 'done', status: 'completed' });
  });

  it('an unknown answer asks again; "n" denies and the model is told the user denied it', async () => {
    const s = await suite.serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await runInPty(s, [], { steps: [answer('maybe\r'), answer('n\r', '"maybe" is not an answer here.\r\nAnswer [y/s/n]: ')] });
    expect(out.unmet).toEqual([]);
    expect(out.code).toBe(0);
    expect(suite.w.exists('made.txt')).toBe(false);
    expect(toolContent(s, 1)[0]).toContain('The user denied Bash');
  });

  it('"s" allows the suggested rule for the session: the next matching call does not ask again', async () => {
    const s = await suite.serve([bashCall('touch a.txt'), bashCall('touch b.txt'), textReply('ok')]);
    const out = await runInPty(s, [], { steps: [answer('s\r')] });
    expect(out.unmet).toEqual([]);
    expect(out.code).toBe(0);
    expect(suite.w.exists('a.txt')).toBe(true);
    expect(suite.w.exists('b.txt')).toBe(true);
    expect(questions(out.tty)).toBe(1);
  });

  it("a hook's ask offers only allow / deny, names the hook, and its allow runs the call", async () => {
    const ask = `node -e 'process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:"PreToolUse",permissionDecision:"ask",permissionDecisionReason:"needs a human"}}))'`;
    await suite.w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: ask }] }] } });
    const s = await suite.serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await runInPty(s, ['--permission-mode', 'bypassPermissions'], { steps: [answer('y\r', 'Answer [y/n]: ')] });
    expect(out.unmet).toEqual([]);
    expect(out.tty).toContain('Reason: needs a human');
    expect(out.tty).toContain('Asked by hook:');
    expect(out.tty).not.toContain('[s]');
    expect(suite.w.exists('made.txt')).toBe(true);
  });

  it('Ctrl+C while asking denies and stops the run (exit 1)', async () => {
    const s = await suite.serve([bashCall('touch made.txt'), textReply('never')]);
    const out = await runInPty(s, [], { steps: [answer('\x03')] });
    expect(out.unmet).toEqual([]);
    expect(out.code).toBe(1);
    expect(out.tty).toContain('stopping');
    expect(suite.w.exists('made.txt')).toBe(false);
    expect(s.requests).toHaveLength(1);
  });

  it('with stdin not a terminal the answer is read from /dev/tty', async () => {
    const s = await suite.serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await runInPty(s, [], { stdin: 'devnull', steps: [answer('y\r')] });
    expect(out.unmet).toEqual([]);
    expect(out.code).toBe(0);
    expect(suite.w.exists('made.txt')).toBe(true);
  });

  it('--permission-prompt tty asks through /dev/tty when stderr is redirected (auto would not ask)', async () => {
    const s = await suite.serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await runInPty(s, ['--permission-prompt', 'tty'], { stderr: 'pipe', steps: [answer('y\r')] });
    expect(out.unmet).toEqual([]);
    expect(out.code).toBe(0);
    expect(out.tty).toContain('Allow Bash for the main agent?');
    expect(out.stderr).not.toContain('Allow Bash');
    expect(suite.w.exists('made.txt')).toBe(true);
  });

  it('--permission-prompt none never asks, even at a terminal: the ask is denied at once', async () => {
    const s = await suite.serve([bashCall('touch made.txt'), textReply('ok')]);
    const out = await runInPty(s, ['--permission-prompt', 'none']);
    expect(out.code).toBe(0);
    expect(out.tty).not.toContain('Answer [');
    expect(suite.w.exists('made.txt')).toBe(false);
    expect(toolContent(s, 1)[0]).toContain('headless');
  });

  it('without any terminal the ask is denied without waiting; --permission-prompt tty is then a usage error', async () => {
    const s = await suite.serve([bashCall('touch made.txt'), textReply('ok'), textReply('unused')]);
    const auto = await runInPty(s, [], { terminal: false });
    expect(auto.code).toBe(0);
    expect(auto.tty).not.toContain('Answer [');
    expect(suite.w.exists('made.txt')).toBe(false);
    const forced = await runInPty(s, ['--permission-prompt', 'tty'], { terminal: false });
    expect(forced.code).toBe(2);
    expect(forced.tty).toContain('--permission-prompt tty: there is no terminal');
  });
});
