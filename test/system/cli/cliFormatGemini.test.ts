import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { bash, toolMessage } from '../../support/formatCliHelpers';
import { parseJsonResult } from '../../support/cliHarness';

const suite = useCliSuite();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats/gemini');
const node = (name: string): string => `node ${JSON.stringify(path.join(FIXTURES, name))}`;

/** Writes `.gemini/settings.json` with these hooks (and Gemini's other settings beside them). */
function geminiHooks(hooks: Record<string, unknown[]>, extra: Record<string, unknown> = {}): Promise<string> {
  return suite.w.write('.gemini/settings.json', JSON.stringify({ theme: 'Default', hooks, ...extra }, null, 2));
}

const beforeTool = (script: string, matcher = 'run_shell_command|write_file', timeout?: number) => ({
  BeforeTool: [{ matcher, hooks: [{ name: 'security', type: 'command', command: node(script), ...(timeout !== undefined ? { timeout } : {}) }] }],
});

describe('hookwise -p with hooks in .gemini/settings.json, run with Gemini CLI semantics', () => {
  it('deny (JSON): the docs secret scanner stops a write_file with a key in it; the model gets the reason; Hook Runs name the Gemini file', async () => {
    await geminiHooks(beforeTool('security.cjs'));
    const s = await suite.serve([
      toolCallsReply([{ id: 'w1', name: 'Write', arguments: { file_path: 'config.txt', content: 'api_key=sk-123' } }]),
      textReply('I will not write it.'),
    ]);

    const out = await suite.runPrompt(s, 'save the config', 4, '--permission-mode', 'bypassPermissions');
    const json = parseJsonResult(out);

    expect(suite.w.exists('config.txt')).toBe(false);
    expect(toolMessage(s, 1)).toContain('Potential secret detected');
    expect(json.hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', decision: 'deny', source: 'Gemini .gemini/settings.json › hooks.BeforeTool[0].hooks[0]' }),
    );
  });

  it('deny (exit 2): plain stderr with exit code 2 blocks run_shell_command with that text', async () => {
    await suite.w.write('keep.txt', 'precious');
    await geminiHooks(beforeTool('security.cjs'));
    const s = await suite.serve([bash('rm keep.txt'), textReply('kept')]);

    await suite.runPrompt(s, 'clean up', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(toolMessage(s, 1)).toContain('rm is blocked by the Gemini guard');
  });

  it('allow: decision allow runs the command without asking', async () => {
    await geminiHooks(beforeTool('security.cjs'));
    const s = await suite.serve([bash('echo allowed > ran.txt'), textReply('done')]);

    const out = await suite.runPrompt(s, 'go', 4);

    expect(suite.w.read('ran.txt').trim()).toBe('allowed');
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', decision: 'allow' }));
  });

  it('ask: decision ask goes to a person; with nobody to answer the command does not run', async () => {
    await geminiHooks(beforeTool('security.cjs'));
    const s = await suite.serve([bash('echo ask > asked.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.exists('asked.txt')).toBe(false);
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', decision: 'ask' }));
  });

  it('the matcher is a regex on Gemini tool names: "Bash" does not select run_shell_command', async () => {
    await suite.w.write('keep.txt', 'precious');
    await geminiHooks(beforeTool('security.cjs', 'Bash'));
    const s = await suite.serve([bash('rm keep.txt'), textReply('deleted')]);

    const out = await suite.runPrompt(s, 'clean up', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.exists('keep.txt')).toBe(false);
    expect(parseJsonResult(out).hook_runs.filter((r) => r.event === 'PreToolUse')).toEqual([]);
  });

  it('failure: exit 1 with text is a warning and the tool runs (fail open)', async () => {
    await geminiHooks(beforeTool('warn.cjs'));
    const s = await suite.serve([bash('echo hi > hi.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('hi.txt').trim()).toBe('hi');
    expect(parseJsonResult(out)).toMatchObject({ status: 'completed', result: 'ok' });
  });

  it('timeout: the timeout is in milliseconds; past it the hook fails open and the tool runs', async () => {
    await geminiHooks(beforeTool('slow.cjs', 'run_shell_command', 1000));
    const s = await suite.serve([bash('echo through > through.txt'), textReply('ok')]);

    const out = await suite.runPrompt(s, 'go', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('through.txt').trim()).toBe('through');
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PreToolUse', status: expect.stringMatching(/timed?[-_ ]?out/i) }));
  });

  it('rewrite: hookSpecificOutput.tool_input is merged into the arguments that run', async () => {
    await geminiHooks(beforeTool('security.cjs'));
    const s = await suite.serve([bash('echo original > out.txt'), textReply('done')]);

    await suite.runPrompt(s, 'write it', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.read('out.txt').trim()).toBe('rewritten');
  });

  it('added context: a BeforeAgent additionalContext reaches the model', async () => {
    await geminiHooks({ BeforeAgent: [{ hooks: [{ type: 'command', command: node('context.cjs') }] }] });
    const s = await suite.serve([textReply('bonjour')]);

    await suite.runPrompt(s, 'hi', 2);

    expect(JSON.stringify(s.requests[0]?.body.messages)).toContain('Gemini policy: answer in French.');
  });

  it('hooksConfig.disabled names a hook that then does not run, as in Gemini', async () => {
    await suite.w.write('keep.txt', 'precious');
    await geminiHooks(beforeTool('security.cjs'), { hooksConfig: { disabled: ['security'] } });
    const s = await suite.serve([bash('rm keep.txt'), textReply('deleted')]);

    await suite.runPrompt(s, 'clean up', 4, '--permission-mode', 'bypassPermissions');

    expect(suite.w.exists('keep.txt')).toBe(false);
  });

  it('model-level events: AfterModel redacts the reply (the demo redactor, unchanged); BeforeToolSelection in Gemini tool names narrows what the server sees', async () => {
    const redactor = path.resolve(FIXTURES, '../../../../examples/demo-workspace/.claude/hooks/redact-secrets.cjs');
    await geminiHooks({
      AfterModel: [{ hooks: [{ type: 'command', command: `node ${JSON.stringify(redactor)}` }] }],
      BeforeToolSelection: [{ hooks: [{ type: 'command', command: node('read-only-tools.cjs') }] }],
    });
    const s = await suite.serve([textReply('The key is sk-SECRET12345 keep it safe.')]);

    const out = await suite.runPrompt(s, 'what is the key?', 2);
    const result = parseJsonResult(out);

    expect(result).toMatchObject({ result: 'The key is [REDACTED] keep it safe.' });
    expect(readFileSync(result.transcript_path, 'utf8')).not.toContain('sk-SECRET12345');
    const tools = (s.requests[0]?.body as { tools?: { function: { name: string } }[] }).tools ?? [];
    expect(tools.map((t) => t.function.name).sort()).toEqual(['Grep', 'Read']);
  });

  it('input shape: snake_case fields, Gemini event and tool names and parameter names, GEMINI_* variables', async () => {
    await suite.w.write('keep.txt', 'content');
    await geminiHooks({
      BeforeTool: [{ hooks: [{ type: 'command', command: node('record.cjs') }] }],
      AfterTool: [{ hooks: [{ type: 'command', command: node('record.cjs') }] }],
    });
    const s = await suite.serve([
      toolCallsReply([{ id: 'c1', name: 'Read', arguments: { file_path: 'keep.txt', offset: 1, limit: 5 } }]),
      textReply('read it'),
    ]);

    await suite.runPrompt(s, 'read', 4, '--permission-mode', 'bypassPermissions');
    const [pre, post] = suite.w.jsonLines('record.jsonl');

    expect(pre?.input).toMatchObject({
      session_id: expect.any(String),
      cwd: suite.w.ws,
      hook_event_name: 'BeforeTool',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      tool_name: 'read_file',
      tool_input: { file_path: 'keep.txt', start_line: 1, end_line: 5 },
    });
    expect(pre?.env).toMatchObject({ GEMINI_PROJECT_DIR: suite.w.ws, CLAUDE_PROJECT_DIR: suite.w.ws, GEMINI_SESSION_ID: expect.any(String) });
    expect(post?.input).toMatchObject({
      hook_event_name: 'AfterTool',
      tool_name: 'read_file',
      tool_response: { llmContent: expect.stringContaining('content') },
    });
  });
});
