import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { HookwiseRuntime } from '../../../src/agent/hookwiseRuntime';
import { standardConfigSources } from '../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import type { OpenAiTestServer, RecordedRequest, ScriptedReply } from '../../support/openAiTestServer';
import { startOpenAiTestServer, textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliWorkspace } from '../cli/cliHarness';
import { makeCliWorkspace } from '../cli/cliHarness';

// Issue 12 §8 follow-up: an agent hook reads the workspace with Read, Glob and Grep; the
// session's Read deny rules bind it as they bind the main agent (it used to run its tools
// with no rules at all, so `Read(secret.env)` did not stop it).

const SECRET = 'TOKEN=hunter2-do-not-leak';
let w: CliWorkspace;
let server: OpenAiTestServer | undefined;
beforeEach(async () => {
  w = await makeCliWorkspace();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await w.cleanup();
});

const isAgentHook = (r: RecordedRequest): boolean => JSON.stringify(r.body.messages ?? []).includes('You are evaluating a hook');

it('an agent hook cannot Read, Grep or Glob a file a Read deny rule covers', async () => {
  await w.write('secret.env', `${SECRET}\n`);
  await w.write('notes.txt', 'TOKEN lives elsewhere\n');
  await w.settings({
    permissions: { deny: ['Read(secret.env)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Allow only if the secrets are safe.' }] }] },
  });
  let hookStep = 0;
  let mainStep = 0;
  const script = (request: RecordedRequest): ScriptedReply => {
    if (!isAgentHook(request)) return mainStep++ === 0 ? toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'true' } }]) : textReply('done');
    switch (hookStep++) {
      case 0: return toolCallsReply([{ id: 'r1', name: 'Read', arguments: { file_path: path.join(w.ws, 'secret.env') } }]);
      case 1: return toolCallsReply([{ id: 'g1', name: 'Grep', arguments: { pattern: 'TOKEN', path: '.', output_mode: 'content' } }]);
      case 2: return toolCallsReply([{ id: 'l1', name: 'Glob', arguments: { pattern: '**/*.env' } }]);
      default: return textReply('{"ok": true}');
    }
  };
  server = await startOpenAiTestServer({ script });
  const runtime = new HookwiseRuntime({
    projectDir: w.ws,
    homeDir: w.home,
    model: new OpenAiModelClient({ model: 'test-model', baseURL: server.url, apiKey: 'k', maxRetries: 0 }),
    transcriptDir: path.join(w.hookwiseHome, 'projects', 'ws'),
  });
  runtime.applyConfig(await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] })), { trusted: true });
  const session = runtime.createSession({ permissionMode: 'bypassPermissions', trusted: true, emit: () => undefined });
  await session.start('startup', new AbortController().signal);
  await session.submit('go', new AbortController().signal);
  await session.end('other');

  expect(hookStep).toBe(4);
  const hookRequests = server.requests.filter(isAgentHook);
  const toolResults = (hookRequests.at(-1)?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
  expect(toolResults).toHaveLength(3);
  expect(toolResults[0]).toMatch(/denied|Read\(secret\.env\)/i);
  expect(toolResults[1]).toContain('notes.txt');
  expect(toolResults.join('\n')).not.toContain('hunter2');
  expect(toolResults[2]).not.toContain('secret.env');
});
