import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { bash, toolMessage } from '../../support/formatCliHelpers';
import { parseJsonResult } from '../../support/cliHarness';

const suite = useCliSuite();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats/windsurf');
const script = (name: string): string => path.join(FIXTURES, name);

/** Writes `.windsurf/hooks.json`. */
function windsurfHooks(hooks: Record<string, unknown[]>): Promise<string> {
  return suite.w.write('.windsurf/hooks.json', JSON.stringify({ hooks }, null, 2));
}

describe('hookwise -p with a .windsurf/hooks.json, run with Windsurf semantics', () => {
  it('deny: the docs pre_run_command hook exits 2; stderr reaches the model; Hook Runs name the Windsurf file', async () => {
    await suite.w.write('keep.txt', 'precious');
    await windsurfHooks({ pre_run_command: [{ command: `python3 ${script('block_dangerous_commands.py')}`, show_output: true }] });
    const s = await suite.serve([bash('rm keep.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'clean', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(toolMessage(s, 1)).toContain("Command blocked: 'rm ' is not allowed by the Windsurf policy.");
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', decision: 'deny', source: 'Windsurf .windsurf/hooks.json › hooks.pre_run_command[0]' }),
    );
  });

  it('allow (no opinion): exit 0 lets the command run; pre_run_command does not fire for other tools', async () => {
    await suite.w.write('notes.txt', 'n');
    await windsurfHooks({ pre_run_command: [{ command: script('record.sh') }, { command: `python3 ${script('block_dangerous_commands.py')}` }] });
    const s = await suite.serve([
      toolCallsReply([
        { id: 'a', name: 'Read', arguments: { file_path: 'notes.txt' } },
        { id: 'b', name: 'Bash', arguments: { command: 'echo fine > fine.txt' } },
      ]),
      textReply('ok'),
    ]);

    await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('fine.txt').trim()).toBe('fine');
    expect(suite.w.jsonLines('record.jsonl')).toHaveLength(1);
  });

  it('ask has no Windsurf equivalent: the only block is exit 2 (a JSON "decision" on stdout is not read)', async () => {
    await suite.w.write('ask.sh', '#!/bin/bash\ncat > /dev/null\necho \'{"decision":"deny"}\'\n');
    await windsurfHooks({ pre_run_command: [{ command: 'bash ask.sh' }] });
    const s = await suite.serve([bash('echo ran > ran.txt'), textReply('ok')]);

    await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('ran.txt').trim()).toBe('ran');
  });

  it('failure fails open: a crashing pre_run_command hook does not stop the command', async () => {
    await windsurfHooks({ pre_run_command: [{ command: script('crash.sh') }] });
    const s = await suite.serve([bash('echo open > open.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('open.txt').trim()).toBe('open');
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: 'failed' }));
  });

  it('pre_user_prompt exit 2 blocks the prompt before the model sees it', async () => {
    await windsurfHooks({ pre_user_prompt: [{ command: `python3 ${script('block_prompt.py')}` }] });
    const s = await suite.serve([textReply('should not be asked')]);

    const out = await suite.runPrompt(s, 'my password is hunter2', 2);

    expect(s.requests).toHaveLength(0);
    expect(parseJsonResult(out)).toMatchObject({ status: 'blocked' });
  });

  it('input shape: agent_action_name, trajectory_id, execution_id, timestamp and tool_info.command_line', async () => {
    await windsurfHooks({ pre_run_command: [{ command: script('record.sh') }], post_run_command: [{ command: script('record.sh') }] });
    const s = await suite.serve([bash('echo hi'), textReply('ok')]);

    await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');
    const [pre, post] = suite.w.jsonLines('record.jsonl');

    expect(pre).toMatchObject({
      agent_action_name: 'pre_run_command',
      trajectory_id: expect.any(String),
      execution_id: expect.any(String),
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      tool_info: { command_line: 'echo hi', cwd: suite.w.ws },
    });
    expect(post).toMatchObject({ agent_action_name: 'post_run_command', tool_info: { command_line: 'echo hi' } });
  });
});
