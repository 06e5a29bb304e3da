import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { bash, toolMessage } from '../../support/formatCliHelpers';
import { parseJsonResult } from '../../support/cliHarness';

const suite = useCliSuite();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats/cursor');
const script = (name: string): string => path.join(FIXTURES, name);

/** Writes `.cursor/hooks.json`. */
function cursorHooks(hooks: Record<string, unknown[]>): Promise<string> {
  return suite.w.write('.cursor/hooks.json', JSON.stringify({ version: 1, hooks }, null, 2));
}

describe('hookwise -p with a .cursor/hooks.json, run with Cursor semantics', () => {
  it('deny: the docs block-git hook denies git; the model gets agent_message; Hook Runs name the Cursor file', async () => {
    await cursorHooks({ beforeShellExecution: [{ command: script('block-git.sh') }] });
    const s = await suite.serve([bash('git status > status.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'status', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.exists('status.txt')).toBe(false);
    expect(toolMessage(s, 1)).toContain('was blocked by a Cursor hook. Use gh instead.');
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', decision: 'deny', source: 'Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]' }),
    );
  });

  it('allow: permission allow runs the command without asking', async () => {
    await cursorHooks({ beforeShellExecution: [{ command: script('block-git.sh') }] });
    const s = await suite.serve([bash('echo fine > fine.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4);

    expect(suite.w.read('fine.txt').trim()).toBe('fine');
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', decision: 'allow' }));
  });

  it('ask: permission ask on beforeShellExecution goes to a person; with nobody to answer it does not run', async () => {
    await cursorHooks({ beforeShellExecution: [{ command: script('block-git.sh') }] });
    const s = await suite.serve([bash('gh pr list > prs.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'prs', 4);

    expect(suite.w.exists('prs.txt')).toBe(false);
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', decision: 'ask' }));
  });

  it('beforeShellExecution fires only for shell commands, and its matcher tests the command text', async () => {
    await suite.w.write('notes.txt', 'n');
    await cursorHooks({ beforeShellExecution: [{ command: script('record.sh'), matcher: 'curl|wget' }] });
    const s = await suite.serve([
      toolCallsReply([
        { id: 'a', name: 'Read', arguments: { file_path: 'notes.txt' } },
        { id: 'b', name: 'Bash', arguments: { command: 'echo curl is mentioned' } },
        { id: 'c', name: 'Bash', arguments: { command: 'echo nothing' } },
      ]),
      textReply('ok'),
    ]);

    await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.jsonLines('record.jsonl').map((r) => r.command)).toEqual(['echo curl is mentioned']);
  });

  it('failure: a crashing hook fails open', async () => {
    await cursorHooks({ beforeShellExecution: [{ command: script('crash.sh') }] });
    const s = await suite.serve([bash('echo open > open.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('open.txt').trim()).toBe('open');
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: 'failed', exit_code: 1 }));
  });

  it('failure with failClosed: true denies the command', async () => {
    await cursorHooks({ beforeShellExecution: [{ command: script('crash.sh'), failClosed: true }] });
    const s = await suite.serve([bash('echo closed > closed.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.exists('closed.txt')).toBe(false);
    expect(toolMessage(s, 1)).toMatch(/Blocked by a PreToolUse hook: .*Cursor \.cursor\/hooks\.json › hooks\.beforeShellExecution\[0\].* fail closed/);
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: 'failed', exit_code: 1 }));
  });

  it('timeout: fail-open by default, denied with failClosed', async () => {
    await cursorHooks({
      beforeShellExecution: [
        { command: script('slow.sh'), timeout: 1, matcher: 'open' },
        { command: script('slow.sh'), timeout: 1, matcher: 'closed', failClosed: true },
      ],
    });
    const s = await suite.serve([
      toolCallsReply([
        { id: 'a', name: 'Bash', arguments: { command: 'echo open > open.txt' } },
        { id: 'b', name: 'Bash', arguments: { command: 'echo closed > closed.txt' } },
      ]),
      textReply('ok'),
    ]);

    await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('open.txt').trim()).toBe('open');
    expect(suite.w.exists('closed.txt')).toBe(false);
  });

  it('rewrite: preToolUse updated_input replaces the Shell command', async () => {
    await cursorHooks({ preToolUse: [{ command: script('rewrite.sh'), matcher: 'Shell' }] });
    const s = await suite.serve([bash('echo original > out.txt'), textReply('done')]);

    await suite.runPrompt(s, 'write', 4);

    expect(suite.w.read('out.txt').trim()).toBe('rewritten');
  });

  it('added context: postToolUse additional_context reaches the model', async () => {
    await cursorHooks({ postToolUse: [{ command: script('context.sh') }] });
    const s = await suite.serve([bash('echo hi'), textReply('ok')]);

    await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain('Cursor policy: run the linter after edits.');
  });

  it('input shape: Cursor fields, Shell in preToolUse, command in beforeShellExecution, Cursor env', async () => {
    await suite.w.write(
      'record-env.sh',
      '#!/bin/bash\ncat > /dev/null\necho "{\\"p\\":\\"$CURSOR_PROJECT_DIR\\",\\"c\\":\\"$CLAUDE_PROJECT_DIR\\"}" >> env.jsonl\n',
    );
    await cursorHooks({
      preToolUse: [{ command: `RECORD_FILE=pre.jsonl ${script('record.sh')}` }],
      beforeShellExecution: [{ command: `RECORD_FILE=shell.jsonl ${script('record.sh')}` }, { command: 'bash record-env.sh' }],
    });
    const s = await suite.serve([bash('echo hi'), textReply('ok')]);

    await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');
    const [pre] = suite.w.jsonLines('pre.jsonl');
    const [shell] = suite.w.jsonLines('shell.jsonl');

    expect(pre).toMatchObject({
      conversation_id: expect.any(String),
      workspace_roots: [suite.w.ws],
      tool_name: 'Shell',
      tool_input: { command: 'echo hi' },
      cwd: suite.w.ws,
    });
    expect(shell).toMatchObject({ hook_event_name: 'beforeShellExecution', command: 'echo hi', cwd: suite.w.ws, cursor_version: expect.any(String) });
    expect(suite.w.jsonLines('env.jsonl')).toEqual([{ p: suite.w.ws, c: suite.w.ws }]);
  });

  it('self-protection: the agent creating .cursor/hooks.json or editing a Copilot hooks file asks, so headless it is refused', async () => {
    await suite.w.write('.github/hooks/guard.json', '{"version": 1, "hooks": {}}');
    const s = await suite.serve([
      toolCallsReply([
        { id: 'w1', name: 'Write', arguments: { file_path: '.cursor/hooks.json', content: '{"version": 1, "hooks": {}}' } },
        { id: 'w2', name: 'Bash', arguments: { command: 'echo "{}" > .github/hooks/guard.json' } },
        { id: 'w3', name: 'Write', arguments: { file_path: 'notes.txt', content: 'fine' } },
      ]),
      textReply('ok'),
    ]);

    await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.exists('.cursor/hooks.json')).toBe(false);
    expect(suite.w.read('.github/hooks/guard.json')).toBe('{"version": 1, "hooks": {}}');
    // In bypassPermissions only the protected writes ask; an ordinary write goes through.
    expect(suite.w.read('notes.txt')).toBe('fine');
    expect(toolMessage(s, 1)).toMatch(/Write was not run: no one to ask[\s\S]*Bash was not run: no one to ask/);
  });
});
