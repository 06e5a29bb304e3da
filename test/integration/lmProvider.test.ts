/**
 * The vscode-lm path against a real chat model provider: the fixture extension
 * test/fixtures/lmProvider (loaded beside Hookwise by the runner) registers scripted models
 * with `vscode.lm.registerLanguageModelChatProvider`, so every request here crosses the real
 * extension host ↔ workbench boundary, as with GitHub Copilot Chat or any other provider.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelStreamEvent } from '../../src/model/modelClient';
import { ModelError } from '../../src/model/modelError';
import { listLanguageModels, resolveVscodeLmModelClient } from '../../src/vscode/model/vscodeLmModelClient';
import { lmFixture, scriptedClient } from './lmFixture';
import type { LmFixture } from './lmFixture';

async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

/** Resolves once `check` holds after an `onDidChangeChatModels`, or rejects after 10 s. */
function modelsChange(check: (ids: string[]) => boolean): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (sub.dispose(), reject(new Error('onDidChangeChatModels did not bring the expected models'))), 10_000);
    const sub = vscode.lm.onDidChangeChatModels(async () => {
      const ids = (await listLanguageModels()).map((m) => m.id);
      if (check(ids)) {
        clearTimeout(timer);
        sub.dispose();
        resolve(ids);
      }
    });
  });
}

suite('vscode-lm models from a real provider extension', () => {
  let fixture: LmFixture;
  suiteSetup(async () => {
    fixture = await lmFixture();
  });
  setup(() => fixture.reset());

  test('the provider model is listed and resolved by id, family and name, with its token count', async () => {
    const models = await listLanguageModels();
    const scripted = models.find((m) => m.id === 'scripted');
    assert.ok(scripted, `listed: ${JSON.stringify(models)}`);
    assert.equal(scripted.vendor, 'hookwise-test');
    assert.equal(scripted.name, 'Scripted Test Model');
    assert.equal(scripted.maxInputTokens, 100_000);
    for (const name of ['scripted', 'hookwise-scripted', 'scripted test model']) {
      const resolved = await resolveVscodeLmModelClient(name);
      assert.ok(resolved.ok && resolved.client.model.id === 'scripted', name);
    }
    const client = await scriptedClient();
    assert.equal(client.label, 'Scripted Test Model (VS Code Language Model)');
    assert.equal(await client.model.countTokens('12345678'), 2);
  });

  test('streams text parts in order and ends with stop', async () => {
    fixture.setScript([[{ text: 'Hel' }, { delayMs: 20 }, { text: 'lo ' }, { text: 'world' }]]);
    const client = await scriptedClient();
    const events = await collect(
      client.stream(
        {
          messages: [
            { role: 'system', content: 'be brief' },
            { role: 'user', content: 'hi' },
          ],
        },
        new AbortController().signal,
      ),
    );
    assert.equal(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e.type === 'text' ? e.delta : ''))
        .join(''),
      'Hello world',
    );
    assert.deepEqual(events.at(-1), { type: 'done', finishReason: 'stop' });
    const [request] = fixture.requests;
    assert.deepEqual(request?.messages, [{ role: 'user', parts: [{ type: 'text', value: 'be brief\n\nhi' }] }]);
  });

  test('tool calls and their results round-trip with ids and JSON arguments', async () => {
    const input = { path: 'src/a.ts', options: { deep: [1, 'two', null], flag: true } };
    fixture.setScript([[{ text: 'Reading.' }, { toolCall: { id: 'call_abc', name: 'Read', input } }]]);
    const client = await scriptedClient();
    const tools = [{ name: 'Read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    const first = await collect(client.stream({ messages: [{ role: 'user', content: 'read it' }], tools }, new AbortController().signal));
    const call = first.find((e) => e.type === 'toolCall');
    assert.ok(call?.type === 'toolCall');
    assert.equal(call.call.id, 'call_abc');
    assert.equal(call.call.name, 'Read');
    assert.deepEqual(JSON.parse(call.call.argumentsText), input);
    assert.deepEqual(first.at(-1), { type: 'done', finishReason: 'tool_calls' });
    assert.deepEqual(fixture.requests[0]?.tools, ['Read']);

    await collect(
      client.stream(
        {
          messages: [
            { role: 'user', content: 'read it' },
            { role: 'assistant', content: 'Reading.', toolCalls: [call.call] },
            { role: 'tool', toolCallId: 'call_abc', content: 'file body' },
          ],
          tools,
        },
        new AbortController().signal,
      ),
    );
    const second = fixture.requests[1]?.messages ?? [];
    assert.deepEqual(second[1], {
      role: 'assistant',
      parts: [
        { type: 'text', value: 'Reading.' },
        { type: 'toolCall', callId: 'call_abc', name: 'Read', input },
      ],
    });
    assert.deepEqual(second[2], { role: 'user', parts: [{ type: 'toolResult', callId: 'call_abc', content: ['file body'] }] });
  });

  test('provider errors become ModelErrors that say what to do (not signed in, quota, gone, other)', async () => {
    const client = await scriptedClient();
    const cases: [string, ModelError['reason'], RegExp][] = [
      ['NoPermissions', 'auth', /may not use the language model "Scripted Test Model" yet/],
      ['Blocked', 'rateLimited', /quota or rate limit/],
      ['NotFound', 'notFound', /no longer available/],
      ['disk on fire', 'server', /"Scripted Test Model" failed: .*disk on fire/],
    ];
    for (const [error, reason, message] of cases) {
      fixture.setScript([[{ error }]]);
      await assert.rejects(collect(client.stream({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal)), (e: unknown) => {
        assert.ok(ModelError.is(e, reason), `${error}: expected ${reason}, got ${String(e)}`);
        assert.match(e.message, message);
        return true;
      });
    }
  });

  test('Stop cancels the request in the provider', async () => {
    fixture.setScript([[{ text: 'thinking…' }, { waitForCancel: true }, { text: 'never sent' }]]);
    const client = await scriptedClient();
    const controller = new AbortController();
    const reason = new Error('Stopped by the user');
    const seen: ModelStreamEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const e of client.stream({ messages: [{ role: 'user', content: 'go' }] }, controller.signal)) {
          seen.push(e);
          controller.abort(reason);
        }
      })(),
      (e) => e === reason,
    );
    assert.deepEqual(seen, [{ type: 'text', delta: 'thinking…' }]);
    const deadline = Date.now() + 5000;
    while (fixture.cancellations === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(fixture.cancellations, 1, 'the provider saw its token cancelled');
  });

  test('models appearing and disappearing fire onDidChangeChatModels; a vanished model is a clear problem', async () => {
    const appeared = modelsChange((ids) => ids.includes('scripted-large'));
    fixture.setModels([
      { id: 'scripted', name: 'Scripted Test Model', family: 'hookwise-scripted' },
      { id: 'scripted-large', name: 'Scripted Large' },
    ]);
    await appeared;
    assert.ok((await resolveVscodeLmModelClient('scripted-large')).ok);
    const gone = modelsChange((ids) => !ids.includes('scripted-large'));
    fixture.setModels([{ id: 'scripted', name: 'Scripted Test Model', family: 'hookwise-scripted' }]);
    await gone;
    const missing = await resolveVscodeLmModelClient('scripted-large');
    assert.equal(missing.ok, false);
    assert.match(missing.ok ? '' : missing.problem, /"scripted-large" is not available\. Available: .*Scripted Test Model \(scripted\)/);
  });
});
