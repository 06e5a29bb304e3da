import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { bash, toolMessage } from '../../support/formatCliHelpers';
import { parseJsonResult } from '../../support/cliHarness';

const suite = useCliSuite();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats/copilot');
const script = (name: string): string => path.join(FIXTURES, name);

/** Writes `.github/hooks/guard.json` in Copilot's format. */
function copilotHooks(hooks: Record<string, unknown[]>): Promise<string> {
  return suite.w.write('.github/hooks/guard.json', JSON.stringify({ version: 1, hooks }, null, 2));
}

describe('hookwise -p with a Copilot .github/hooks file, run with Copilot semantics', () => {
  it('deny: the docs guard denies rm; the file survives, the model gets the reason, Hook Runs name the Copilot file', async () => {
    await suite.w.write('keep.txt', 'precious');
    await copilotHooks({ preToolUse: [{ type: 'command', matcher: 'bash', bash: script('guard.sh'), timeoutSec: 10 }] });
    const s = await suite.serve([bash('rm keep.txt'), textReply('I will keep it.')]);

    const out = await suite.runPrompt(s, 'clean up', 4, '--permission-mode', 'acceptEdits');
    const json = parseJsonResult(out);

    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(toolMessage(s, 1)).toContain('rm is blocked by the Copilot guard');
    expect(json.hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', decision: 'deny', source: 'Copilot .github/hooks/guard.json › hooks.preToolUse[0]' }),
    );
  });

  it('allow: permissionDecision allow runs the command without asking', async () => {
    await copilotHooks({ preToolUse: [{ type: 'command', matcher: 'bash', bash: script('guard.sh') }] });
    const s = await suite.serve([bash('echo allowed > ran.txt'), textReply('done')]);

    const out = await suite.runPrompt(s, 'go', 4);

    expect(suite.w.read('ran.txt').trim()).toBe('allowed');
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', decision: 'allow' }));
  });

  it('ask: permissionDecision ask goes to a person; with nobody to answer the command does not run', async () => {
    await copilotHooks({ preToolUse: [{ type: 'command', matcher: 'bash', bash: script('guard.sh') }] });
    const s = await suite.serve([bash('echo ask > asked.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4);

    expect(suite.w.exists('asked.txt')).toBe(false);
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', decision: 'ask' }));
  });

  it('the matcher is anchored and uses Copilot tool names: "bas" and "Bash" do not select bash', async () => {
    await suite.w.write('keep.txt', 'precious');
    await copilotHooks({
      preToolUse: [
        { type: 'command', matcher: 'bas', bash: script('guard.sh') },
        { type: 'command', matcher: 'Bash', bash: script('guard.sh') },
      ],
    });
    const s = await suite.serve([bash('rm keep.txt'), textReply('deleted')]);

    const out = await suite.runPrompt(s, 'clean up', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.exists('keep.txt')).toBe(false);
    expect(parseJsonResult(out).hook_runs.filter((r) => r.event === 'PreToolUse')).toEqual([]);
  });

  it('failure: a preToolUse hook that crashes denies (Copilot fails closed there)', async () => {
    await copilotHooks({ preToolUse: [{ type: 'command', bash: script('crash.sh') }] });
    const s = await suite.serve([bash('echo hi > hi.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.exists('hi.txt')).toBe(false);
    expect(toolMessage(s, 1)).toContain('Copilot denies when this hook fails');
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', decision: 'deny' }));
  });

  it('failure: a postToolUse hook that crashes is logged and skipped (fail open)', async () => {
    await copilotHooks({ postToolUse: [{ type: 'command', bash: script('crash.sh') }] });
    const s = await suite.serve([bash('echo hi > hi.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');
    const json = parseJsonResult(out);

    expect(suite.w.read('hi.txt').trim()).toBe('hi');
    expect(json).toMatchObject({ status: 'completed', result: 'ok' });
    expect(json.hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PostToolUse', status: 'failed', error: expect.stringContaining('jq: command not found') }),
    );
  });

  it('timeout: a preToolUse hook past its timeoutSec fails open (Copilot never denies on a timeout)', async () => {
    await copilotHooks({ preToolUse: [{ type: 'command', bash: script('slow.sh'), timeoutSec: 1 }] });
    const s = await suite.serve([bash('echo through > through.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('through.txt').trim()).toBe('through');
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: expect.stringMatching(/timed?[-_ ]?out/i) }));
  });

  it('rewrite: modifiedArgs replaces the command that runs', async () => {
    await copilotHooks({ preToolUse: [{ type: 'command', matcher: 'bash', bash: script('guard.sh') }] });
    const s = await suite.serve([bash('echo original > out.txt'), textReply('done')]);

    await suite.runPrompt(s, 'write it', 4);

    expect(suite.w.read('out.txt').trim()).toBe('rewritten');
  });

  it('added context: a sessionStart additionalContext reaches the model', async () => {
    await copilotHooks({ sessionStart: [{ type: 'command', bash: script('session-context.sh') }] });
    const s = await suite.serve([textReply('hello')]);

    await suite.runPrompt(s, 'hi', 2);

    expect(JSON.stringify(s.requests[0]?.body.messages)).toContain('Copilot policy: never push to main.');
  });

  it('input shape: camelCase fields, Copilot tool names and toolArgs as a JSON string', async () => {
    await copilotHooks({ preToolUse: [{ type: 'command', bash: script('record.sh') }], postToolUse: [{ type: 'command', bash: script('record.sh') }] });
    const s = await suite.serve([toolCallsReply([{ id: 'c1', name: 'Read', arguments: { file_path: 'keep.txt' } }]), textReply('read it')]);
    await suite.w.write('keep.txt', 'content');

    await suite.runPrompt(s, 'read', 4, '--permission-mode', 'bypassPermissions');
    const [pre, post] = suite.w.jsonLines('record.jsonl');

    expect(pre).toMatchObject({
      sessionId: expect.any(String),
      timestamp: expect.any(Number),
      cwd: suite.w.ws,
      toolName: 'view',
      toolArgs: expect.any(String),
    });
    expect(JSON.parse(String(pre?.toolArgs))).toEqual({ path: 'keep.txt' });
    expect(pre).not.toHaveProperty('tool_name');
    expect(post).toMatchObject({ toolName: 'view', toolResult: { resultType: 'success', textResultForLlm: expect.stringContaining('content') } });
  });
});
