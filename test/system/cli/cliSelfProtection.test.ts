import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer, ScriptedReply } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { PtyRun } from './ptyCli';
import { runCliInPty } from './ptyCli';
import { useCliSuite } from '../../support/cliSuite';

/**
 * The self-protection backstop with a person to ask (a real pseudo-terminal, python3's pty): a
 * Bash command that changed `.claude/settings.json` by a route no check saw (`node -e` building
 * the name at run time) stops the run with "keep or revert"; `y` keeps the change, `n` puts the
 * file back; either way the model is told.
 */

const suite = useCliSuite();
const ORIGINAL = '{"cleanupPeriodDays": 30}\n';
const WRITE = `node -e "require('fs').writeFileSync(String.fromCharCode(46) + 'claude/settings.json', 'PWNED')"`;

function runInPty(s: OpenAiTestServer, answer: string): Promise<PtyRun> {
  const args = ['-p', 'do it', '--model', 'test-model', '--base-url', s.url, '--max-steps', '6', '--permission-mode', 'bypassPermissions'];
  return runCliInPty(suite.cli, suite.w, args, { steps: [{ expect: 'Answer [y/n]: ', send: answer }] });
}

const bashCall = (command: string): ScriptedReply => toolCallsReply([{ name: 'Bash', arguments: { command } }]);
const toolResults = (s: OpenAiTestServer): string =>
  (s.requests[s.requests.length - 1]?.body.messages ?? [])
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content))
    .join('\n');

describe('a Bash command that changed the agent’s configuration, with a person to ask', () => {
  it('"n" reverts the file; the model is told it was reverted', async () => {
    await suite.w.write('.claude/settings.json', ORIGINAL);
    const s = await suite.serve([bashCall(WRITE), textReply('done')]);
    const out = await runInPty(s, 'n\r');
    expect(out.unmet).toEqual([]);
    expect(out.tty).toContain("changed the agent's own configuration: .claude/settings.json (changed)");
    expect(suite.w.read('.claude/settings.json')).toBe(ORIGINAL);
    expect(toolResults(s)).toContain('Hookwise reverted .claude/settings.json (changed)');
    expect(toolResults(s)).toContain('the user chose to revert it');
  });

  it('"y" keeps the change; the model is told the user kept it', async () => {
    await suite.w.write('.claude/settings.json', ORIGINAL);
    const s = await suite.serve([bashCall(WRITE), textReply('done')]);
    const out = await runInPty(s, 'y\r');
    expect(out.unmet).toEqual([]);
    expect(suite.w.read('.claude/settings.json')).toBe('PWNED');
    expect(toolResults(s)).toContain('the user chose to keep the change');
  });
});
