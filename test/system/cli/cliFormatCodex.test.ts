import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { bash, toolMessage } from '../../support/formatCliHelpers';
import { parseJsonResult } from '../../support/cliHarness';

const suite = useCliSuite();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats/codex');
const node = (name: string): string => `node ${JSON.stringify(path.join(FIXTURES, name))}`;

/** Writes `.codex/hooks.json`. */
function codexHooks(hooks: Record<string, unknown[]>): Promise<string> {
  return suite.w.write('.codex/hooks.json', JSON.stringify({ hooks }, null, 2));
}

const preToolUse = (script: string, matcher = '^Bash$', timeout?: number) => ({
  PreToolUse: [{ matcher, hooks: [{ type: 'command', command: node(script), ...(timeout !== undefined ? { timeout } : {}) }] }],
});

describe('hookwise -p with Codex hooks (.codex/hooks.json, [hooks] in .codex/config.toml), run with Codex semantics', () => {
  it('deny: permissionDecision deny blocks rm; the model gets the reason; Hook Runs name the Codex file', async () => {
    await suite.w.write('keep.txt', 'precious');
    await codexHooks(preToolUse('policy.cjs'));
    const s = await suite.serve([bash('rm keep.txt'), textReply('kept')]);

    const out = await suite.runPrompt(s, 'clean up', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(toolMessage(s, 1)).toContain('rm is blocked by the Codex policy');
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', decision: 'deny', source: 'Codex .codex/hooks.json › hooks.PreToolUse[0].hooks[0]' }),
    );
  });

  it('deny: the legacy decision "block" and exit 2 with stderr block too', async () => {
    await codexHooks(preToolUse('policy.cjs'));
    const s = await suite.serve([bash('git push origin main'), bash('curl https://example.com'), textReply('ok')]);

    await suite.runPrompt(s, 'ship it', 5, '--permission-mode', 'bypassPermissions');

    expect(toolMessage(s, 1)).toContain('pushing is blocked by the Codex policy');
    expect(toolMessage(s, 2)).toContain('network is blocked by the Codex policy');
  });

  it('ask is not supported by Codex: the hook is marked failed and the tool proceeds', async () => {
    await codexHooks(preToolUse('policy.cjs'));
    const s = await suite.serve([bash('echo ask > asked.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('asked.txt').trim()).toBe('ask');
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', status: 'failed', error: expect.stringContaining('Codex does not support ask') }),
    );
  });

  it('failure: a hook that exits 1 is a failed run and the tool proceeds (fail open)', async () => {
    await codexHooks(preToolUse('crash.cjs'));
    const s = await suite.serve([bash('echo hi > hi.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('hi.txt').trim()).toBe('hi');
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', status: 'failed', error: expect.stringContaining('policy service unreachable') }),
    );
  });

  it('timeout: the timeout is in seconds; past it the hook fails open', async () => {
    await codexHooks(preToolUse('slow.cjs', '^Bash$', 1));
    const s = await suite.serve([bash('echo through > through.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('through.txt').trim()).toBe('through');
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: expect.stringMatching(/timed?[-_ ]?out/i) }));
  });

  it('rewrite: allow with updatedInput changes the command that runs', async () => {
    await codexHooks(preToolUse('policy.cjs'));
    const s = await suite.serve([bash('echo original > out.txt'), textReply('done')]);

    await suite.runPrompt(s, 'write it', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('out.txt').trim()).toBe('rewritten');
  });

  it('added context: SessionStart plain stdout reaches the model; the [hooks] table of config.toml is read', async () => {
    await suite.w.write(
      '.codex/config.toml',
      [
        'model = "gpt-5"',
        '',
        '[[hooks.SessionStart]]',
        'matcher = "startup"',
        '[[hooks.SessionStart.hooks]]',
        'type = "command"',
        `command = '${node('context.cjs')}'`,
        '',
      ].join('\n'),
    );
    const s = await suite.serve([textReply('hello')]);

    const out = await suite.runPrompt(s, 'hi', 2);

    expect(JSON.stringify(s.requests[0]?.body.messages)).toContain('Codex policy: never push to main.');
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'SessionStart', source: 'Codex .codex/config.toml › hooks.SessionStart[0].hooks[0]' }),
    );
  });

  it('matchers: "Edit" selects an edit, which the hook sees as apply_patch with the patch text', async () => {
    await suite.w.write('a.txt', 'one\n');
    await codexHooks({ PreToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: node('record.cjs') }] }] });
    const s = await suite.serve([
      toolCallsReply([{ id: 'e1', name: 'Read', arguments: { file_path: 'a.txt' } }]),
      toolCallsReply([{ id: 'e2', name: 'Edit', arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }]),
      textReply('edited'),
    ]);

    await suite.runPrompt(s, 'edit', 5, '--permission-mode', 'bypassPermissions');
    const records = suite.w.jsonLines('record.jsonl');

    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch' },
      session_id: expect.any(String),
      turn_id: expect.any(String),
      cwd: suite.w.ws,
    });
  });

  it('a broken config.toml is one diagnostic naming the file and line; the other hook files still load', async () => {
    await suite.w.write('keep.txt', 'precious');
    await suite.w.write('.codex/config.toml', '[hooks\nbroken = ');
    await codexHooks(preToolUse('policy.cjs'));
    const s = await suite.serve([bash('rm keep.txt'), textReply('kept')]);

    const out = await suite.runPrompt(s, 'clean up', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(out.stderr).toMatch(/\.codex\/config\.toml.*:1.*TOML syntax error/s);
  });
});
