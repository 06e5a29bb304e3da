/**
 * The model settings of an untrusted repository in the real extension host (Restricted Mode, on
 * the repository's own `evil.code-workspace`, whose settings choose `hookwise.model.baseUrl`
 * and `hookwise.model.provider: playground`; runIntegration.mjs writes it): both are ignored.
 * The prompt and the user's key go to the user's own endpoint (a node:http listener that records
 * every request), and the agent's model is not the Playground.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { HookwiseApi } from '../../src/extension';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('hookwise');

suite("untrusted host: the repository's model settings are ignored", () => {
  let api: HookwiseApi;
  let userServer: Server;
  let userUrl = '';
  const userSeen: string[] = [];
  const envKey = process.env.OPENAI_API_KEY;

  suiteSetup(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this host must be in Restricted Mode');
    const file = vscode.workspace.workspaceFile;
    assert.ok(file?.scheme === 'file', 'opened on the repository workspace file');
    const repoSettings = (JSON.parse(readFileSync(file.fsPath, 'utf8')) as { settings?: Record<string, unknown> }).settings ?? {};
    assert.equal(repoSettings['hookwise.model.provider'], 'playground');
    assert.equal(typeof repoSettings['hookwise.model.baseUrl'], 'string');
    // The user's own endpoint: answers 400 at once (no retries), after recording who called.
    userServer = createServer((req, res) => {
      userSeen.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers.authorization ?? ''}`);
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'test endpoint', type: 'invalid_request_error' } }));
    });
    await new Promise<void>((resolve) => userServer.listen(0, '127.0.0.1', resolve));
    userUrl = `http://127.0.0.1:${(userServer.address() as AddressInfo).port}/v1`;
    const ext = vscode.extensions.getExtension<HookwiseApi>('hookwise.hookwise');
    assert.ok(ext);
    api = await ext.activate();
    delete process.env.OPENAI_API_KEY;
    await vscode.commands.executeCommand('hookwise.setApiKey', 'sk-untrusted-test-key');
    // The user's own choice: an OpenAI-compatible model at the user's endpoint.
    await config().update('model.provider', 'openai-compatible', vscode.ConfigurationTarget.Global);
    await config().update('model.baseUrl', userUrl, vscode.ConfigurationTarget.Global);
    await config().update('model.name', 'gpt-test', vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    for (const key of ['model.provider', 'model.name', 'model.baseUrl']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    if (envKey !== undefined) process.env.OPENAI_API_KEY = envKey;
    await new Promise<void>((resolve) => (userServer.closeAllConnections(), userServer.close(() => resolve())));
  });

  test("the repository's baseUrl never gets the user's key or the prompt: the user's endpoint does", async () => {
    await api.controller.reloadModel();
    await api.controller.newSession();
    await api.controller.submit('here is my secret prompt');
    assert.ok(
      userSeen.some((line) => line.startsWith('POST') && line.endsWith('Bearer sk-untrusted-test-key')),
      `the user's endpoint saw: ${JSON.stringify(userSeen)}`,
    );
  });

  test('the repository cannot switch the agent to the Playground', async () => {
    await api.controller.reloadModel();
    assert.equal(api.controller.model.isPlayground, false, `model: ${api.controller.model.label}`);
  });
});
