/**
 * The chat's marks of model-level hooks inside the real extension host: a real Session talking
 * to the real OpenAI-compatible test server (which records what it receives), real command
 * hooks, and the real ChatViewProvider. A BeforeInference hook that answers in the model's
 * place shows "Answered by hook …" and no request reaches the server; an AfterInference hook
 * that redacts shows "Reply redacted by hook …", and neither the chat nor the transcript holds
 * the original text.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { Session } from '../../src/agent/session';
import { createBuiltinTools } from '../../src/agent/tools/builtinTools';
import { CommandHookAction } from '../../src/hooks/actions/commandHookAction';
import type { HookEvent } from '../../src/hooks/hookEvent';
import { HookRegistry } from '../../src/hooks/hookRegistry';
import { HookRunner } from '../../src/hooks/hookRunner';
import { OpenAiModelClient } from '../../src/model/openAiModelClient';
import type { ChatEvent } from '../../src/shared/webviewProtocol';
import { ChatViewProvider } from '../../src/vscode/chat/chatViewProvider';
import { startOpenAiTestServer, type OpenAiTestServer, type ScriptedReply } from '../support/openAiTestServer';

interface Harness {
  readonly dir: string;
  readonly server: OpenAiTestServer;
  readonly session: Session;
  readonly chat: ChatViewProvider;
  /** Registers a command hook on `event` that runs the node script `body` (its stdin is the hook input). */
  hook(event: HookEvent, name: string, body: string): void;
  send(prompt: string): Promise<unknown>;
  dispose(): Promise<void>;
}

async function harness(script: readonly ScriptedReply[]): Promise<Harness> {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'hookwise-model-marks-')));
  const server = await startOpenAiTestServer({ script: [...script] });
  const log = { error: () => undefined, warn: () => undefined, info: () => undefined } as unknown as vscode.LogOutputChannel;
  const chat = new ChatViewProvider(vscode.Uri.file(dir), log);
  const registry = new HookRegistry();
  const session = new Session({
    cwd: dir,
    projectDir: dir,
    transcriptDir: path.join(dir, '.transcripts'),
    model: new OpenAiModelClient({ baseURL: server.url, model: 'test-model', maxRetries: 0 }),
    hooks: new HookRunner(registry, { projectDir: dir }),
    tools: createBuiltinTools(),
    permissionMode: 'bypassPermissions',
    systemPrompt: 'test',
    emit: (event) => chat.postAgentEvent(event),
  });
  return {
    dir,
    server,
    session,
    chat,
    hook: (event, name, body) => {
      const file = path.join(dir, `${name}.cjs`);
      writeFileSync(file, `const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));\nprocess.stdout.write(JSON.stringify(${body}));\n`);
      registry.register({
        event,
        action: new CommandHookAction(`${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`),
        source: { kind: 'code', label: name },
      });
    },
    send: (prompt) => {
      chat.addUserPrompt(prompt);
      return session.submit(prompt, new AbortController().signal);
    },
    dispose: async () => {
      chat.dispose();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Marker = Extract<ChatEvent, { type: 'modelHookMarker' }>;

/** The main agent's marks and messages in the order the chat shows them. */
function shownInOrder(events: readonly ChatEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === 'modelHookMarker') return [`mark: ${e.text}`];
    if (e.type === 'assistantMessage' && e.text !== '') return [`reply: ${e.text}`];
    return [];
  });
}

suite('chat marks of model-level hooks', () => {
  test('a BeforeInference hook answering with llm_response: "Answered by hook" on the reply, and the server got no request', async () => {
    const h = await harness([{ text: 'the model was called' }]);
    try {
      h.hook(
        'BeforeInference',
        'cache',
        `{ hookSpecificOutput: { hookEventName: 'BeforeInference', llm_response: { candidates: [{ content: { role: 'model', parts: ['From the cache: 42.'] }, finishReason: 'STOP' }] } } }`,
      );
      await h.send('what is the answer?');

      const { events } = h.chat.shown();
      const shown = shownInOrder(events);
      assert.equal(shown.length, 2, shown.join('\n'));
      assert.match(shown[0] ?? '', /^mark: Answered by hook ".*cache.*" \(the model was not called\)$/);
      assert.equal(shown[1], 'reply: From the cache: 42.');
      assert.equal((events.find((e) => e.type === 'modelHookMarker') as Marker).kind, 'answered');
      assert.equal(h.server.requests.length, 0, 'no request reached the model server');
    } finally {
      await h.dispose();
    }
  });

  test('an AfterInference hook redacting the reply: "Reply redacted by hook" on the reply, and the original is nowhere', async () => {
    const h = await harness([{ text: 'The key is sk-SECRET123, keep it safe.' }]);
    try {
      h.hook(
        'AfterInference',
        'redact',
        `{ hookSpecificOutput: { hookEventName: 'AfterModel', llm_response: { text: input.llm_response.text.replace(/sk-[A-Za-z0-9]+/g, '[REDACTED]') } } }`,
      );
      await h.send('what is the key?');

      const { events } = h.chat.shown();
      const shown = shownInOrder(events);
      assert.deepEqual(
        shown.map((s) => s.replace(/".*"/, '"…"')),
        ['mark: Reply redacted by hook "…"', 'reply: The key is [REDACTED], keep it safe.'],
      );
      assert.match(shown[0] ?? '', /redact/);
      assert.equal(h.server.requests.length, 1);
      assert.ok(!JSON.stringify(events).includes('sk-SECRET123'), 'the chat never got the original text');
      const transcript = readFileSync(h.session.transcriptPath, 'utf8');
      assert.ok(transcript.includes('[REDACTED]'), 'the transcript has the redacted reply');
      assert.ok(!transcript.includes('sk-SECRET123'), 'the transcript lacks the original text');
    } finally {
      await h.dispose();
    }
  });
});
