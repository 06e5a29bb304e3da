import { afterEach, describe, expect, it } from 'vitest';
import { buildPromptHookPrompt, PROMPT_HOOK_SYSTEM_PROMPT, PromptHookAction } from '../../../../src/hooks/actions/promptHookAction';
import type { HookActionContext } from '../../../../src/hooks/hookAction';
import type { HookEvent } from '../../../../src/hooks/hookEvent';
import { testHookAction } from '../../../../src/hooks/hookTester';
import { OpenAiModelClient } from '../../../../src/model/openAiModelClient';
import { errorReply, startOpenAiTestServer, textReply, type OpenAiTestServer, type ScriptedReply } from '../../../support/openAiTestServer';

let server: OpenAiTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: readonly ScriptedReply[], extra: { rejectResponseFormat?: boolean } = {}): Promise<OpenAiModelClient> {
  server = await startOpenAiTestServer({ script, ...extra });
  return new OpenAiModelClient({ baseURL: server.url, model: 'test-model', apiKey: 'k', maxRetries: 0 });
}

function ctx(event: HookEvent, signal: AbortSignal = new AbortController().signal): HookActionContext {
  return { event, signal, timeoutMs: 30_000, cwd: '/tmp', projectDir: '/tmp', sessionId: 's1' };
}

const preToolUse = { session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };
const userMessage = (n = 0) => String(server?.requests[n]?.body.messages?.[1]?.content);

describe('PromptHookAction — against a real OpenAI-compatible server', () => {
  it('shape: kind, dedupKey, default timeout, label', () => {
    const action = new PromptHookAction('Is this safe?\n  Check $ARGUMENTS', () => {
      throw new Error('not called');
    });
    expect(action).toMatchObject({
      kind: 'prompt',
      dedupKey: 'prompt:Is this safe?\n  Check $ARGUMENTS',
      defaultTimeoutMs: 30_000,
      label: 'Is this safe? Check $ARGUMENTS',
    });
  });

  it('ok:true → ok, no decision; sends system prompt, substituted $ARGUMENTS and a JSON-schema response format', async () => {
    const client = await serve([textReply('{"ok": true}')]);
    const r = await new PromptHookAction('Allow unless destructive: $ARGUMENTS (input: $ARGUMENTS)', client).run(preToolUse, ctx('PreToolUse'));
    expect(r).toEqual({ status: 'ok', outcome: {} });
    const body = server!.requests[0]!.body;
    expect(body.messages?.[0]).toEqual({ role: 'system', content: PROMPT_HOOK_SYSTEM_PROMPT });
    const json = JSON.stringify(preToolUse);
    expect(userMessage()).toBe(`Allow unless destructive: ${json} (input: ${json})`);
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'hook_condition', schema: { required: ['ok'] } } });
    expect(body.model).toBe('test-model');
  });

  it('ok:false on PreToolUse → deny with "Prompt hook condition was not met: <reason>"', async () => {
    const client = await serve([textReply('{"ok": false, "reason": "deletes the build directory"}')]);
    const r = await new PromptHookAction('Is it safe?', client).run(preToolUse, ctx('PreToolUse'));
    expect(r).toEqual({ status: 'ok', outcome: { decision: 'deny', reason: 'Prompt hook condition was not met: deletes the build directory' } });
    expect(userMessage()).toBe(`Is it safe?\n\nARGUMENTS: ${JSON.stringify(preToolUse)}`);
  });

  it('ok:false on Stop → continue with the reason; without a reason the message still reads well', async () => {
    const client = await serve([textReply('{"ok":false,"reason":"tests not run"}'), textReply('{"ok":false}')]);
    const action = new PromptHookAction('Did the agent run the tests?', client);
    const stopInput = { hook_event_name: 'Stop', stop_hook_active: false };
    expect((await action.run(stopInput, ctx('Stop'))).outcome).toEqual({ decision: 'continue', reason: 'Prompt hook condition was not met: tests not run' });
    expect((await action.run(stopInput, ctx('SubagentStop'))).outcome).toEqual({ decision: 'continue', reason: 'Prompt hook condition was not met' });
  });

  it('tolerant parsing: fenced JSON, JSON inside prose (endpoint without structured output)', async () => {
    const client = await serve(
      [
        textReply('```json\n{"ok": false, "reason": "touches .env"}\n```'),
        textReply('Sure! Here is my verdict: {"ok": true, "note": "fine"} Hope that helps.'),
      ],
      { rejectResponseFormat: true },
    );
    const action = new PromptHookAction('Safe?', client);
    expect((await action.run(preToolUse, ctx('PreToolUse'))).outcome).toEqual({ decision: 'deny', reason: 'Prompt hook condition was not met: touches .env' });
    expect(await action.run(preToolUse, ctx('PreToolUse'))).toEqual({ status: 'ok', outcome: {} });
  });

  it('prose answer → failed with the first 200 characters', async () => {
    const prose = `I think this command is probably fine, but ${'really '.repeat(60)}it depends.`;
    const client = await serve([textReply(prose)]);
    const r = await new PromptHookAction('Safe?', client).run(preToolUse, ctx('PreToolUse'));
    expect(r.status).toBe('failed');
    expect(r.error).toBe(`prompt hook answer was not JSON {ok, reason}: ${prose.slice(0, 200)}`);
  });

  it('JSON of the wrong shape → failed', async () => {
    const client = await serve([textReply('{"decision": "approve"}')]);
    const r = await new PromptHookAction('Safe?', client).run(preToolUse, ctx('PreToolUse'));
    expect(r).toMatchObject({ status: 'failed', error: 'prompt hook answer was not JSON {ok, reason}: {"decision": "approve"}' });
  });

  it('HTTP error from the model → failed with the model layer message', async () => {
    const client = await serve([errorReply(500, { message: 'upstream exploded' })]);
    const r = await new PromptHookAction('Safe?', client).run(preToolUse, ctx('PreToolUse'));
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^prompt hook model call failed: /);
  });

  it('the model hangs past the hook timeout → cancelled promptly (runner/tester timeout)', async () => {
    const client = await serve([{ hang: true }]);
    const record = await testHookAction(new PromptHookAction('Safe?', client), preToolUse, { cwd: '/tmp', projectDir: '/tmp', sessionId: 's', timeoutMs: 300 });
    expect(record.timedOut).toBe(true);
    expect(record.result.status).toBe('cancelled');
    expect(record.result.error).toMatch(/^timed out after 300 ms/);
    expect(record.durationMs).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(server!.requests[0]!.clientDisconnected).toBe(true);
  });

  it('the model client gives up (its own idle timeout) → failed "timed out"', async () => {
    server = await startOpenAiTestServer({ script: [{ hang: true, afterText: '{"ok":' }] });
    const client = new OpenAiModelClient({ baseURL: server.url, model: 'test-model', apiKey: 'k', maxRetries: 0, timeoutMs: 200 });
    const r = await new PromptHookAction('Safe?', client).run(preToolUse, ctx('PreToolUse'));
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^prompt hook model (timed out|call failed): /);
  });

  it('the hook `model` field: sent per request to a plain client, passed to a factory', async () => {
    const client = await serve([textReply('{"ok":true}'), textReply('{"ok":true}')]);
    await new PromptHookAction('Safe?', client, { model: 'small-fast' }).run(preToolUse, ctx('PreToolUse'));
    expect(server!.requests[0]!.body.model).toBe('small-fast');
    const asked: (string | undefined)[] = [];
    const factory = (name?: string) => {
      asked.push(name);
      return client;
    };
    expect(await new PromptHookAction('Safe?', factory, { model: 'haiku' }).run(preToolUse, ctx('PreToolUse'))).toEqual({ status: 'ok', outcome: {} });
    expect(asked).toEqual(['haiku']);
  });

  it('a factory that throws (no model configured) → failed, never thrown', async () => {
    const r = await new PromptHookAction('Safe?', () => {
      throw new Error('no model endpoint is configured');
    }).run(preToolUse, ctx('PreToolUse'));
    expect(r).toMatchObject({ status: 'failed', error: 'could not prepare the prompt hook: no model endpoint is configured' });
  });

  it('an already-aborted signal makes no call', async () => {
    const client = await serve([]);
    const r = await new PromptHookAction('Safe?', client).run(preToolUse, ctx('PreToolUse', AbortSignal.abort()));
    expect(r.status).toBe('cancelled');
    expect(server!.requests).toHaveLength(0);
  });
});

describe('buildPromptHookPrompt', () => {
  it('replaces every $ARGUMENTS, else appends', () => {
    expect(buildPromptHookPrompt('a $ARGUMENTS b $ARGUMENTS', '{"x":1}')).toBe('a {"x":1} b {"x":1}');
    expect(buildPromptHookPrompt('check it', '{}')).toBe('check it\n\nARGUMENTS: {}');
  });
  it('does not interpret $-patterns in the input JSON', () => {
    expect(buildPromptHookPrompt('$ARGUMENTS', '{"a":"$&$1"}')).toBe('{"a":"$&$1"}');
  });
});
