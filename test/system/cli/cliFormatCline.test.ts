import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { bash, toolMessage } from '../../support/formatCliHelpers';
import { parseJsonResult } from '../../support/cliHarness';

const suite = useCliSuite();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats/cline');

/** Installs fixture `script` as the executable `.clinerules/hooks/<event>`. */
async function clineHook(event: string, script = event): Promise<void> {
  const file = await suite.w.write(`.clinerules/hooks/${event}`, readFileSync(path.join(FIXTURES, script), 'utf8'));
  chmodSync(file, 0o755);
}

describe('hookwise -p with Cline hook scripts (.clinerules/hooks/<Event>), run with Cline semantics', () => {
  it('cancel: PreToolUse {cancel: true} stops rm with its errorMessage; Hook Runs name the Cline script', async () => {
    await suite.w.write('keep.txt', 'precious');
    await clineHook('PreToolUse');
    const s = await suite.serve([bash('rm keep.txt'), textReply('kept')]);

    const out = await suite.runPrompt(s, 'clean up', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(toolMessage(s, 1)).toContain('rm is blocked by the Cline hook');
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', decision: 'deny', source: expect.stringMatching(/^Cline \.clinerules\/hooks\/PreToolUse/) }),
    );
  });

  it('allow with context: {cancel: false, contextModification} lets the tool run and the model sees the context', async () => {
    await clineHook('PreToolUse');
    const s = await suite.serve([bash('echo hi > hi.txt'), textReply('done')]);

    await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('hi.txt').trim()).toBe('hi');
    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain('Cline hook saw execute_command');
  });

  it('added context: UserPromptSubmit contextModification reaches the model', async () => {
    await clineHook('UserPromptSubmit');
    const s = await suite.serve([textReply('hello')]);

    await suite.runPrompt(s, 'what changed?', 2);

    expect(JSON.stringify(s.requests[0]?.body.messages)).toContain('Cline context for: what changed?');
  });

  it('failure: a hook that exits non-zero without JSON is an error and the tool still runs (Cline fails open)', async () => {
    await clineHook('PreToolUse', 'crash');
    const s = await suite.serve([bash('echo hi > hi.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('hi.txt').trim()).toBe('hi');
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', status: 'failed', error: expect.stringContaining('hook broke') }),
    );
  });

  it('a file not named after a Cline event is not a hook', async () => {
    await suite.w.write('keep.txt', 'precious');
    await clineHook('README', 'PreToolUse');
    const s = await suite.serve([bash('rm keep.txt'), textReply('deleted')]);

    const out = await suite.runPrompt(s, 'clean up', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.exists('keep.txt')).toBe(false);
    expect(parseJsonResult(out).hook_runs.filter((r) => r.event === 'PreToolUse')).toEqual([]);
  });

  it('input shape: camelCase, one object per event, Cline tool names and string parameters', async () => {
    await suite.w.write('keep.txt', 'content');
    await clineHook('PreToolUse', 'record');
    await clineHook('PostToolUse', 'record');
    const s = await suite.serve([toolCallsReply([{ id: 'c1', name: 'Read', arguments: { file_path: 'keep.txt' } }]), textReply('read it')]);

    await suite.runPrompt(s, 'read', 4, '--permission-mode', 'bypassPermissions');
    const [pre, post] = suite.w.jsonLines('record.jsonl');

    expect(pre).toMatchObject({
      hookName: 'PreToolUse',
      taskId: expect.any(String),
      workspaceRoots: [suite.w.ws],
      preToolUse: { toolName: 'read_file', parameters: { path: 'keep.txt' } },
    });
    expect(pre).not.toHaveProperty('tool_name');
    expect(post).toMatchObject({ hookName: 'PostToolUse', postToolUse: { toolName: 'read_file', success: true, result: expect.stringContaining('content') } });
  });
});
