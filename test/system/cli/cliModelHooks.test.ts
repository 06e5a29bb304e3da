import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';
import { parseJsonResult, runCliProcess } from '../../support/cliHarness';

const suite = useCliSuite();
const serve = suite.serve;

const base = (s: OpenAiTestServer): string[] => ['--model', 'test-model', '--base-url', s.url, '--max-steps', '4', '--output-format', 'json'];

/**
 * A command hook written as Gemini CLI hooks are: reads its input on stdin, keeps a copy in
 * `<name>.input.json`, and prints what `body` (a JS expression over `input`) returns.
 */
async function geminiHook(name: string, body: string): Promise<string> {
  const script = [
    "const fs = require('node:fs');",
    "const input = JSON.parse(fs.readFileSync(0, 'utf8'));",
    `fs.writeFileSync(${JSON.stringify(path.join(suite.w.ws, `${name}.input.json`))}, JSON.stringify(input));`,
    `process.stdout.write(JSON.stringify(${body}));`,
  ].join('\n');
  const file = await suite.w.write(`${name}.cjs`, script);
  return `${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`;
}

function inputOf(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(suite.w.ws, `${name}.input.json`), 'utf8')) as Record<string, unknown>;
}

const hooksOn = (event: string, command: string, matcher?: string) => ({
  [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command }] }],
});

describe('model-level command hooks against the real model server', () => {
  it('BeforeInference gets the request and its rewrite is what the server receives', async () => {
    const rewrite = await geminiHook(
      'rewrite',
      `{ hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: {
          messages: [{ role: 'user', content: 'REWRITTEN: ' + input.llm_request.messages.at(-1).content }],
          config: { temperature: 0.25, systemInstruction: input.llm_request.config.systemInstruction + '\\nALWAYS ANSWER IN FRENCH' } } } }`,
    );
    await suite.w.settings({ hooks: hooksOn('BeforeInference', rewrite, 'test-.*') });
    const s = await serve([textReply('Bonjour.')]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'say hello', ...base(s)]);

    expect(parseJsonResult(out)).toMatchObject({ result: 'Bonjour.' });
    const seen = inputOf('rewrite');
    expect(seen).toMatchObject({ hook_event_name: 'BeforeInference', model: 'test-model' });
    const request = seen['llm_request'] as { model: string; messages: { role: string; content: string }[]; toolConfig: { allowedFunctionNames: string[] } };
    expect(request.model).toBe('test-model');
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'say hello' });
    expect(request.toolConfig.allowedFunctionNames).toEqual(expect.arrayContaining(['Read', 'Bash']));
    const body = s.requests[0]?.body as { messages: { role: string; content: string }[]; temperature?: number };
    expect(body.temperature).toBe(0.25);
    expect(body.messages[0]?.content).toMatch(/ALWAYS ANSWER IN FRENCH$/);
    expect(body.messages.slice(1)).toEqual([{ role: 'user', content: 'REWRITTEN: say hello' }]);
  });

  it('a BeforeInference matcher that does not match runs nothing and sends no llm_request', async () => {
    const rewrite = await geminiHook('unmatched', `{ hookSpecificOutput: { hookEventName: 'BeforeInference', llm_request: { messages: [] } } }`);
    await suite.w.settings({ hooks: hooksOn('BeforeInference', rewrite, 'other-model') });
    const s = await serve([textReply('plain')]);
    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'hi', ...base(s)]);
    expect(parseJsonResult(out)).toMatchObject({ result: 'plain' });
    expect(suite.w.exists('unmatched.input.json')).toBe(false);
    expect(JSON.stringify(s.requests[0]?.body)).toContain('"hi"');
  });

  it('a synthetic llm_response answers without the model: no request reaches the server, AfterInference still sees it', async () => {
    const cache = await geminiHook(
      'cache',
      `{ hookSpecificOutput: { hookEventName: 'BeforeInference', llm_response: { candidates: [{ content: { role: 'model', parts: ['From the cache: 42.'] }, finishReason: 'STOP' }] } } }`,
    );
    const after = await geminiHook('after', `{}`);
    await suite.w.settings({ hooks: { ...hooksOn('BeforeInference', cache), ...hooksOn('AfterInference', after) } });
    const s = await serve([textReply('never')]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'what is the answer?', ...base(s)]);

    expect(out.code).toBe(0);
    expect(parseJsonResult(out)).toMatchObject({ result: 'From the cache: 42.' });
    expect(s.requests).toHaveLength(0);
    expect(inputOf('after')).toMatchObject({ assistant_text: 'From the cache: 42.', answered_by_hook: expect.stringContaining('cache.cjs') });
    expect(out.stderr).toMatch(/hookwise: Answered by hook ".*cache\.cjs.*" \(the model was not called\)/);
  });

  it('BeforeToolSelection narrows the tools the server sees: the union of the hooks, never a tool not offered', async () => {
    const readOnly = await geminiHook(
      'readonly',
      `{ hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { allowedFunctionNames: ['Read', 'NoSuchTool'] } } }`,
    );
    const grep = await geminiHook(
      'grep',
      `{ hookSpecificOutput: { hookEventName: 'BeforeToolSelection', toolConfig: { mode: 'AUTO', allowedFunctionNames: ['Grep'] } } }`,
    );
    await suite.w.settings({
      hooks: {
        BeforeToolSelection: [
          {
            hooks: [
              { type: 'command', command: readOnly },
              { type: 'command', command: grep },
            ],
          },
        ],
      },
    });
    const s = await serve([textReply('ok')]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'look around', ...base(s)]);

    expect(parseJsonResult(out)).toMatchObject({ result: 'ok' });
    const tools = (s.requests[0]?.body as { tools?: { function: { name: string } }[] }).tools ?? [];
    expect(tools.map((t) => t.function.name).sort()).toEqual(['Grep', 'Read']);
    expect(inputOf('readonly')).toMatchObject({ hook_event_name: 'BeforeToolSelection', llm_request: { model: 'test-model' } });
  });

  it('AfterInference redacts the reply: the transcript and the result never hold the original', async () => {
    const redact = await geminiHook(
      'redact',
      `{ hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { candidates: [{ content: { role: 'model', parts: [input.llm_response.text.replace(/sk-[A-Za-z0-9]+/g, '[REDACTED]')] } }] } } }`,
    );
    await suite.w.settings({ hooks: hooksOn('AfterInference', redact) });
    const s = await serve([textReply('The key is sk-SECRET123 keep it safe.'), textReply('second')]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'what is the key?', ...base(s)]);

    const result = parseJsonResult(out);
    expect(result).toMatchObject({ result: 'The key is [REDACTED] keep it safe.' });
    expect(out.stdout + out.stderr).not.toContain('sk-SECRET123');
    const transcript = readFileSync(result.transcript_path, 'utf8');
    expect(transcript).toContain('The key is [REDACTED] keep it safe.');
    expect(transcript).not.toContain('sk-SECRET123');
    expect(out.stderr).toMatch(/hookwise: Reply redacted by hook ".*redact\.cjs.*"/);
  });

  it("the text output says, in the chat's words, which hook changed the request and which redacted the reply", async () => {
    const trim = await geminiHook(
      'trim',
      `{ hookSpecificOutput: { hookEventName: 'BeforeModel', llm_request: { messages: [{ role: 'user', content: 'short' }] } } }`,
    );
    const redact = await geminiHook(
      'redact',
      `{ hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { text: input.llm_response.text.replace(/sk-[A-Za-z0-9]+/g, '[REDACTED]') } } }`,
    );
    await suite.w.settings({ hooks: { ...hooksOn('BeforeInference', trim), ...hooksOn('AfterInference', redact) } });
    const s = await serve([textReply('Use sk-SECRET123.')]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'the key?', '--model', 'test-model', '--base-url', s.url, '--max-steps', '4']);

    expect(out.code).toBe(0);
    expect(out.stdout.trim()).toBe('Use [REDACTED].');
    expect(out.stderr).toMatch(/hookwise: Request changed by hook ".*trim\.cjs.*": messages 1 → 1\n/);
    expect(out.stderr).toMatch(/hookwise: Reply redacted by hook ".*redact\.cjs.*"\n/);
    expect(out.stdout + out.stderr).not.toContain('sk-SECRET123');
  });

  it('AfterInference drops a tool call: it never runs, and the rewritten reply goes on to the end', async () => {
    const drop = await geminiHook(
      'drop',
      `{ hookSpecificOutput: { hookEventName: 'AfterInference', llm_response: { text: 'I will not delete anything.', tool_calls: [] } } }`,
    );
    await suite.w.settings({ hooks: hooksOn('AfterInference', drop) });
    const s = await serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'touch deleted.marker' } }]), textReply('never')]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'clean up', ...base(s), '--permission-mode', 'bypassPermissions']);

    expect(parseJsonResult(out)).toMatchObject({ result: 'I will not delete anything.' });
    expect(suite.w.exists('deleted.marker')).toBe(false);
    expect(s.requests).toHaveLength(1);
  });

  it('an invalid llm_request or a reply calling a tool never offered is reported naming the hook; the step goes on unmodified', async () => {
    const bad = await geminiHook(
      'bad',
      `{ hookSpecificOutput: { hookEventName: 'BeforeInference',
          llm_request: { messages: [{ role: 'tool', tool_call_id: 'nope', content: 'orphan' }] },
          llm_response: { text: 'x', tool_calls: [{ id: 'c1', name: 'LaunchMissiles', arguments: '{}' }] } } }`,
    );
    await suite.w.settings({ hooks: hooksOn('BeforeInference', bad) });
    const s = await serve([textReply('the model answered')]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'hello there', ...base(s)]);

    expect(parseJsonResult(out)).toMatchObject({ result: 'the model answered' });
    expect(s.requests).toHaveLength(1);
    expect((s.requests[0]?.body as { messages: { content: string }[] }).messages.at(-1)?.content).toBe('hello there');
    expect(out.stderr).toMatch(/BeforeInference hook ".*bad\.cjs.*": invalid llm_request: messages\[0\] is a tool result for "nope"/);
    expect(out.stderr).toMatch(/BeforeInference hook ".*bad\.cjs.*": invalid llm_response: the reply calls "LaunchMissiles", a tool this call did not offer/);
  });

  it('a 10 MB rewrite fails the hook (output cap) and the request goes out unmodified', async () => {
    const huge = await geminiHook(
      'huge',
      `{ hookSpecificOutput: { hookEventName: 'BeforeInference', llm_request: { messages: [{ role: 'user', content: 'x'.repeat(10 * 1024 * 1024) }] } } }`,
    );
    await suite.w.settings({ hooks: hooksOn('BeforeInference', huge) });
    const s = await serve([textReply('fine')]);

    const out = await runCliProcess(suite.cli, suite.w, ['-p', 'small prompt', ...base(s)]);

    expect(parseJsonResult(out)).toMatchObject({ result: 'fine' });
    expect((s.requests[0]?.body as { messages: { content: string }[] }).messages.at(-1)?.content).toBe('small prompt');
  });

  it('the hook input is capped ($HOOKWISE_HOOKS_MAX_INPUT_BYTES): the cut is marked, and a marker sent back keeps the original text', async () => {
    const echo = await geminiHook(
      'echo',
      `{ hookSpecificOutput: { hookEventName: 'BeforeInference', llm_request: { messages: input.llm_request.messages } } }`,
    );
    await suite.w.settings({ hooks: hooksOn('BeforeInference', echo) });
    const s = await serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo done' } }]), textReply('ok')]);
    const prompt = `LONG-PROMPT ${'p'.repeat(3000)}`;

    const out = await runCliProcess(suite.cli, suite.w, ['-p', prompt, ...base(s), '--permission-mode', 'bypassPermissions'], {
      HOOKWISE_HOOKS_MAX_INPUT_BYTES: '1024',
    });

    expect(parseJsonResult(out)).toMatchObject({ result: 'ok' });
    const request = inputOf('echo')['llm_request'] as { messages: { content: string }[]; truncated?: { messages_cut: number; max_bytes: number } };
    expect(request.truncated).toEqual({ messages_cut: 1, max_bytes: 1024 });
    expect(request.messages[0]?.content).toMatch(/^\[content cut by hookwise\.hooks\.maxInputBytes: message 0\]$/);
    expect(JSON.stringify(s.requests[1]?.body)).toContain(prompt);
  });
});

describe('the demo workspace model-hook examples', () => {
  const demo = path.join(__dirname, '..', '..', '..', 'examples', 'demo-workspace', '.claude');

  it('cost guard, secret redactor and read-only filter: a repeated question is answered from the cache, redacted, with read-only tools', async () => {
    mkdirSync(path.join(suite.w.ws, '.claude', 'hooks'), { recursive: true });
    for (const script of ['cost-guard.cjs', 'redact-secrets.cjs', 'read-only-tools.cjs'])
      copyFileSync(path.join(demo, 'hooks', script), path.join(suite.w.ws, '.claude', 'hooks', script));
    const settings = path.join(demo, 'model-hooks.example.json');
    const s = await serve([textReply('Use the token sk-demo1234567890 for the API.'), textReply('never')]);
    const ask = ['-p', 'which token do I use?', ...base(s), '--settings', settings];

    const first = parseJsonResult(await runCliProcess(suite.cli, suite.w, ask));
    const second = parseJsonResult(await runCliProcess(suite.cli, suite.w, ask));

    expect(first).toMatchObject({ result: 'Use the token [REDACTED] for the API.' });
    expect(second).toMatchObject({ result: 'Use the token [REDACTED] for the API.' });
    expect(s.requests).toHaveLength(1);
    const tools = (s.requests[0]?.body as { tools?: { function: { name: string } }[] }).tools ?? [];
    expect(tools.map((t) => t.function.name).sort()).toEqual(['Glob', 'Grep', 'Read', 'TaskGet', 'TaskList']);
    expect(readFileSync(second.transcript_path, 'utf8')).not.toContain('sk-demo1234567890');
  });
});

describe('the workbench covers model-level hooks: explain --run and saved hook tests', () => {
  const REDACT = `{ hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { text: input.llm_response.text.replace(/sk-[A-Za-z0-9]+/g, '[REDACTED]') } } }`;
  const reply = { llm_response: { text: 'The key is sk-SECRET123.', candidates: [{ content: { role: 'model', parts: ['The key is sk-SECRET123.'] } }] } };

  it('explain --run feeds --input as the event fields and says what the hook changed', async () => {
    await suite.w.settings({ hooks: hooksOn('AfterInference', await geminiHook('redact', REDACT)) });

    const out = await runCliProcess(suite.cli, suite.w, ['hooks', 'explain', '--event', 'AfterInference', '--input', JSON.stringify(reply), '--run']);

    expect(out.code).toBe(0);
    expect(inputOf('redact').llm_response).toEqual(reply.llm_response);
    expect(out.stdout).toMatch(/^ {11}changed: reply redacted$/m);
  });

  it('a saved case expects a change: it passes while the hook redacts, and fails naming the change once it does not', async () => {
    await suite.w.settings({ hooks: hooksOn('AfterInference', await geminiHook('redact', REDACT)) });
    await suite.w.write(
      '.hookwise/hook-tests/redact.json',
      JSON.stringify({ name: 'keys are redacted', event: 'AfterInference', input: reply, expect: { decision: 'none', changed: 'reply redacted' } }),
    );
    const passing = await runCliProcess(suite.cli, suite.w, ['hooks', 'test']);
    expect(passing.stdout).toContain('1 passed, 0 failed');
    expect(passing.code).toBe(0);

    await suite.w.settings({ hooks: hooksOn('AfterInference', await geminiHook('noop', '{}')) });
    const failing = await runCliProcess(suite.cli, suite.w, ['hooks', 'test']);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('changed: expected a model-level hook to have changed "reply redacted", got no change');
  });
});
