/**
 * Model setup in a real extension host: the vscode.lm message/tool mapping builds the API's
 * own part classes, the adapter streams, cancels and maps errors over a stand-in
 * LanguageModelChat (the host has no chat model provider), the two commands and the
 * walkthrough's links. Until the extension wires `registerModelCommands` the test registers
 * it over a stand-in context; once wired it drives the extension's registration (registering
 * twice would throw).
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ModelStreamEvent } from '../../src/model/modelClient';
import { ModelError } from '../../src/model/modelError';
import { API_KEY_SECRET, getApiKey, storeApiKey } from '../../src/vscode/model/apiKey';
import { parseToolInput, toLmMessages, toLmTools } from '../../src/vscode/model/lmMessageMapping';
import { MODEL_COMMANDS, registerModelCommands } from '../../src/vscode/model/modelCommands';
import { listLanguageModels, resolveVscodeLmModelClient, VscodeLmModelClient } from '../../src/vscode/model/vscodeLmModelClient';

/** SecretStorage in memory. */
class MemorySecrets implements vscode.SecretStorage {
  readonly values = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.changed.event;
  get(key: string): Thenable<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Thenable<void> {
    this.values.set(key, value);
    this.changed.fire({ key });
    return Promise.resolve();
  }
  delete(key: string): Thenable<void> {
    this.values.delete(key);
    this.changed.fire({ key });
    return Promise.resolve();
  }
}

/** A LogOutputChannel stand-in that keeps its lines. */
function recordingLog(lines: string[]): vscode.LogOutputChannel {
  const push = (message: string | Error): number => lines.push(String(message));
  return {
    name: 'Hookwise (test)',
    logLevel: vscode.LogLevel.Info,
    onDidChangeLogLevel: new vscode.EventEmitter<vscode.LogLevel>().event,
    trace: push,
    debug: push,
    info: push,
    warn: push,
    error: push,
    append: () => {},
    appendLine: push,
    replace: () => {},
    clear: () => {},
    show: () => {},
    hide: () => {},
    dispose: () => {},
  } as vscode.LogOutputChannel;
}

/** What a fake model was asked. */
interface SentRequest {
  readonly messages: vscode.LanguageModelChatMessage[];
  readonly options: vscode.LanguageModelChatRequestOptions | undefined;
  readonly token: vscode.CancellationToken | undefined;
}

/** A LanguageModelChat whose `sendRequest` runs `respond`. */
function fakeModel(respond: (token: vscode.CancellationToken) => AsyncIterable<unknown> | Promise<never>, sent: SentRequest[] = []): vscode.LanguageModelChat {
  return {
    name: 'Fake GPT',
    id: 'fake-gpt-id',
    vendor: 'test',
    family: 'fake-gpt',
    version: '1',
    maxInputTokens: 1000,
    countTokens: () => Promise.resolve(0),
    sendRequest: async (messages, options, token) => {
      sent.push({ messages, options, token });
      const stream = respond(token ?? new vscode.CancellationTokenSource().token);
      if (stream instanceof Promise) return stream;
      return { stream, text: (async function* () {})() };
    },
  };
}

async function collect(iterable: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

suite('Model setup: vscode.lm adapter', () => {
  test('messages map to User/Assistant messages with text, tool-call and tool-result parts', () => {
    const messages = toLmMessages([
      { role: 'system', content: 'You are Hookwise.' },
      { role: 'user', content: 'Run the tests.' },
      {
        role: 'assistant',
        content: 'Running them.',
        toolCalls: [
          { id: 'call_1', name: 'Bash', argumentsText: '{"command":"npm test"}' },
          { id: 'call_2', name: 'Read', argumentsText: '{"file_path": ' },
        ],
      },
      { role: 'tool', toolCallId: 'call_1', content: 'ok 1' },
      { role: 'tool', toolCallId: 'call_2', content: 'Invalid JSON', isError: true },
      { role: 'assistant', content: 'All green.' },
    ]);
    assert.deepEqual(
      messages.map((m) => m.role),
      [
        vscode.LanguageModelChatMessageRole.User,
        vscode.LanguageModelChatMessageRole.Assistant,
        vscode.LanguageModelChatMessageRole.User,
        vscode.LanguageModelChatMessageRole.Assistant,
      ],
    );
    const [first, assistant, results, last] = messages as [
      vscode.LanguageModelChatMessage,
      vscode.LanguageModelChatMessage,
      vscode.LanguageModelChatMessage,
      vscode.LanguageModelChatMessage,
    ];

    // No system role in this API: the system prompt leads the first user message.
    assert.equal(first.content.length, 1);
    assert.ok(first.content[0] instanceof vscode.LanguageModelTextPart);
    assert.equal(first.content[0].value, 'You are Hookwise.\n\nRun the tests.');

    assert.ok(assistant.content[0] instanceof vscode.LanguageModelTextPart);
    const calls = assistant.content.slice(1);
    assert.ok(calls.every((p) => p instanceof vscode.LanguageModelToolCallPart));
    assert.deepEqual(
      calls.map((p) => {
        const call = p as vscode.LanguageModelToolCallPart;
        return [call.callId, call.name, call.input];
      }),
      [
        ['call_1', 'Bash', { command: 'npm test' }],
        ['call_2', 'Read', {}], // broken JSON → {}
      ],
    );

    // Both results of the step in one User message, each paired by call id.
    assert.equal(results.content.length, 2);
    assert.ok(results.content.every((p) => p instanceof vscode.LanguageModelToolResultPart));
    const [r1, r2] = results.content as vscode.LanguageModelToolResultPart[];
    assert.equal(r1?.callId, 'call_1');
    assert.ok(r1?.content[0] instanceof vscode.LanguageModelTextPart);
    assert.equal((r1.content[0] as vscode.LanguageModelTextPart).value, 'ok 1');
    assert.equal(r2?.callId, 'call_2');
    assert.ok(last.content[0] instanceof vscode.LanguageModelTextPart);
  });

  test('a system-only request becomes one user message; a responseSchema instruction comes last', () => {
    const messages = toLmMessages([{ role: 'system', content: 'Judge this.' }], 'Answer with JSON.');
    assert.equal(messages.length, 1);
    assert.equal(messages[0]?.role, vscode.LanguageModelChatMessageRole.User);
    assert.deepEqual(
      messages[0]?.content.map((p) => (p as vscode.LanguageModelTextPart).value),
      ['Judge this.', 'Answer with JSON.'],
    );
  });

  test('tools map to LanguageModelChatTool; tool input parsing never throws', () => {
    const parameters = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] };
    assert.deepEqual(toLmTools([{ name: 'Bash', description: 'Run a command', parameters }]), [
      { name: 'Bash', description: 'Run a command', inputSchema: parameters },
    ]);
    assert.deepEqual(parseToolInput('[1,2]'), {});
    assert.deepEqual(parseToolInput('null'), {});
    assert.deepEqual(parseToolInput('{"a":1}'), { a: 1 });
  });

  test('streams text and tool calls from the real part classes, with tools and a justification', async () => {
    const sent: SentRequest[] = [];
    const client = new VscodeLmModelClient(
      fakeModel(async function* () {
        yield new vscode.LanguageModelTextPart('Let me ');
        yield new vscode.LanguageModelTextPart('check.');
        yield { kind: 'some future part' };
        yield new vscode.LanguageModelToolCallPart('call_9', 'Bash', { command: 'ls' });
      }, sent),
    );
    assert.equal(client.label, 'Fake GPT (VS Code Language Model)');
    const events = await collect(
      client.stream(
        { messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'Bash', description: 'Run', parameters: { type: 'object' } }] },
        new AbortController().signal,
      ),
    );
    assert.deepEqual(events, [
      { type: 'text', delta: 'Let me ' },
      { type: 'text', delta: 'check.' },
      { type: 'toolCall', call: { id: 'call_9', name: 'Bash', argumentsText: '{"command":"ls"}' } },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
    assert.equal(sent[0]?.options?.tools?.[0]?.name, 'Bash');
    assert.match(sent[0]?.options?.justification ?? '', /Hookwise/);
  });

  test('an abort cancels the request token and rejects with the signal reason', async () => {
    const sent: SentRequest[] = [];
    const client = new VscodeLmModelClient(
      fakeModel(async function* (token) {
        yield new vscode.LanguageModelTextPart('partial');
        await new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()));
      }, sent),
    );
    const controller = new AbortController();
    const reason = new Error('stopped by the user');
    const seen: ModelStreamEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const event of client.stream({ messages: [{ role: 'user', content: 'go' }] }, controller.signal)) {
          seen.push(event);
          controller.abort(reason);
        }
      })(),
      (e) => e === reason,
    );
    assert.deepEqual(seen, [{ type: 'text', delta: 'partial' }]);
    assert.equal(sent[0]?.token?.isCancellationRequested, true);
  });

  test('LanguageModelError codes become ModelErrors with what to do', async () => {
    const cases: [vscode.LanguageModelError, ModelError['reason'], RegExp][] = [
      [vscode.LanguageModelError.NoPermissions('no consent'), 'auth', /may not use the language model "Fake GPT"/],
      [vscode.LanguageModelError.Blocked('quota'), 'rateLimited', /quota or rate limit/],
      [vscode.LanguageModelError.NotFound('gone'), 'notFound', /Select Model/],
    ];
    for (const [error, reason, message] of cases) {
      const client = new VscodeLmModelClient(fakeModel(() => Promise.reject(error)));
      await assert.rejects(collect(client.stream({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal)), (e: unknown) => {
        assert.ok(ModelError.is(e, reason), `expected ${reason}, got ${String(e)}`);
        assert.match(e.message, message);
        return true;
      });
    }
    const failing = new VscodeLmModelClient(
      fakeModel(async function* () {
        yield new vscode.LanguageModelTextPart('a');
        throw new Error('socket closed');
      }),
    );
    await assert.rejects(
      collect(failing.stream({ messages: [{ role: 'user', content: 'x' }] }, new AbortController().signal)),
      (e: unknown) => ModelError.is(e, 'server') && /socket closed/.test(e.message),
    );
  });

  test('listing and resolving models agree; with none the problem says what to install', async () => {
    const models = await listLanguageModels();
    const resolved = await resolveVscodeLmModelClient('');
    if (models.length === 0) {
      assert.equal(resolved.ok, false);
      assert.match(resolved.ok ? '' : resolved.problem, /no language model available.*Select Model/s);
    } else {
      assert.ok(resolved.ok && resolved.client.label.endsWith('(VS Code Language Model)'));
    }
    const missing = await resolveVscodeLmModelClient('no-such-model-anywhere');
    assert.equal(missing.ok, false);
  });
});

suite('Model setup: commands', () => {
  const subscriptions: vscode.Disposable[] = [];
  const secrets = new MemorySecrets();
  const lines: string[] = [];
  let ownRegistration = false;
  const envKey = process.env.OPENAI_API_KEY;
  const modelKeys = ['provider', 'baseUrl', 'name', 'playgroundScript'] as const;
  const before = new Map<string, unknown>();

  suiteSetup(async () => {
    const config = vscode.workspace.getConfiguration('hookwise.model');
    for (const key of modelKeys) before.set(key, config.inspect(key)?.globalValue);
    await vscode.extensions.getExtension('hookwise.hookwise')?.activate();
    const registered = await vscode.commands.getCommands(true);
    if (registered.includes(MODEL_COMMANDS.selectModel)) return;
    ownRegistration = true;
    registerModelCommands({ subscriptions, secrets } as unknown as vscode.ExtensionContext, { log: recordingLog(lines) });
  });

  suiteTeardown(async () => {
    for (const d of subscriptions.splice(0)) d.dispose();
    if (envKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = envKey;
    const config = vscode.workspace.getConfiguration('hookwise.model');
    for (const key of modelKeys) await config.update(key, before.get(key), vscode.ConfigurationTarget.Global);
  });

  test('both commands are registered', async () => {
    const registered = await vscode.commands.getCommands(true);
    for (const id of Object.values(MODEL_COMMANDS)) assert.ok(registered.includes(id), `${id} is not registered`);
  });

  test('getApiKey prefers the stored secret over OPENAI_API_KEY, which is the fallback', async () => {
    const own = new MemorySecrets();
    process.env.OPENAI_API_KEY = 'sk-from-env';
    assert.equal(await getApiKey({ secrets: own }), 'sk-from-env');
    assert.equal(await storeApiKey(own, '  sk-from-secret\n'), 'stored');
    assert.equal(own.values.get(API_KEY_SECRET), 'sk-from-secret');
    assert.equal(await getApiKey({ secrets: own }), 'sk-from-secret');
    assert.equal(await storeApiKey(own, ''), 'deleted');
    assert.equal(await getApiKey({ secrets: own }), 'sk-from-env');
    delete process.env.OPENAI_API_KEY;
    assert.equal(await getApiKey({ secrets: own }), undefined);
  });

  test('"Set API Key" stores the key given as its argument; an empty key deletes it', async () => {
    assert.equal(await vscode.commands.executeCommand(MODEL_COMMANDS.setApiKey, 'sk-test-123'), 'stored');
    if (ownRegistration) assert.equal(secrets.values.get(API_KEY_SECRET), 'sk-test-123');
    assert.equal(await vscode.commands.executeCommand(MODEL_COMMANDS.setApiKey, ''), 'deleted');
    if (ownRegistration) assert.equal(secrets.values.has(API_KEY_SECRET), false);
    if (ownRegistration) assert.ok(!lines.some((l) => l.includes('sk-test-123')), 'the key must never be logged');
  });

  test('"Select Model…" with a selection writes the hookwise.model settings', async () => {
    const selection = { provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', name: 'qwen2.5-coder' };
    assert.deepEqual(await vscode.commands.executeCommand(MODEL_COMMANDS.selectModel, selection), selection);
    const config = vscode.workspace.getConfiguration('hookwise.model');
    assert.equal(config.get('provider'), 'openai-compatible');
    assert.equal(config.get('baseUrl'), 'http://localhost:11434/v1');
    assert.equal(config.get('name'), 'qwen2.5-coder');

    // The playground script is machine-scoped: always a user setting.
    await vscode.commands.executeCommand(MODEL_COMMANDS.selectModel, { provider: 'playground', playgroundScript: '/tmp/script.json' });
    const after = vscode.workspace.getConfiguration('hookwise.model');
    assert.equal(after.inspect('playgroundScript')?.globalValue, '/tmp/script.json');
    assert.equal(after.get('provider'), 'playground');
    assert.equal(after.get('name'), 'qwen2.5-coder', 'keys the provider does not use are left alone');
  });

  test('"Select Model…" without an argument asks through quick picks (driven by keyboard commands)', async () => {
    const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
    // No script file in use (an earlier test set one): the picker lists the one in use first.
    await vscode.workspace.getConfiguration('hookwise.model').update('playgroundScript', undefined, vscode.ConfigurationTarget.Global);
    const result = vscode.commands.executeCommand<unknown>(MODEL_COMMANDS.selectModel);
    // Provider list: the third entry is the Playground; then "Default script" (the first, as the one in use).
    await sleep(1200);
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await sleep(1200);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.deepEqual(await result, { provider: 'playground', playgroundScript: '' });
    assert.equal(vscode.workspace.getConfiguration('hookwise.model').get('provider'), 'playground');
  });

  test('"Select Model…" with an invalid selection writes nothing', async () => {
    const providerBefore = vscode.workspace.getConfiguration('hookwise.model').get('provider');
    assert.equal(
      await vscode.commands.executeCommand(MODEL_COMMANDS.selectModel, { provider: 'openai-compatible', baseUrl: 'not a url', name: 'x' }),
      undefined,
    );
    assert.equal(vscode.workspace.getConfiguration('hookwise.model').get('provider'), providerBefore);
  });

  test('walkthrough "Get started with Hookwise": every step has its markdown and its buttons run registered commands', async () => {
    const extension = vscode.extensions.getExtension('hookwise.hookwise');
    assert.ok(extension, 'the extension is loaded');
    await extension.activate();
    interface Step {
      readonly id: string;
      readonly description: string;
      readonly media: { readonly markdown: string };
    }
    const walkthroughs = (extension.packageJSON as { contributes: { walkthroughs: { id: string; steps: Step[] }[] } }).contributes.walkthroughs;
    const walkthrough = walkthroughs.find((w) => w.id === 'hookwise.gettingStarted');
    assert.ok(walkthrough);
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      ['hookwise.chooseModel', 'hookwise.tryPlayground', 'hookwise.addHook', 'hookwise.watchHookRuns'],
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const step of walkthrough.steps) {
      assert.ok(existsSync(vscode.Uri.joinPath(extension.extensionUri, step.media.markdown).fsPath), `${step.media.markdown} is missing`);
      const commands = [...step.description.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1] ?? '');
      assert.ok(commands.length > 0, `${step.id} has no button`);
      for (const id of commands) assert.ok(registered.has(id), `${step.id} links to ${id}, which is not registered`);
    }
  });
});
