import path from 'node:path';
import { expect, it } from 'vitest';
import type { RecordedRequest, ScriptedReply } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useRuntimeEnv } from './runtimeHarness';

// An agent hook reads the workspace with Read, Glob and Grep; the
// session's Read deny rules bind it as they bind the main agent (it used to run its tools
// with no rules at all, so `Read(secret.env)` did not stop it).

const SECRET = 'TOKEN=hunter2-do-not-leak';
const env = useRuntimeEnv();

const isAgentHook = (r: RecordedRequest): boolean => JSON.stringify(r.body.messages ?? []).includes('You are evaluating a hook');

it('an agent hook cannot Read, Grep or Glob a file a Read deny rule covers', async () => {
  await env.w.write('secret.env', `${SECRET}\n`);
  await env.w.write('notes.txt', 'TOKEN lives elsewhere\n');
  await env.w.settings({
    permissions: { deny: ['Read(secret.env)'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'agent', prompt: 'Allow only if the secrets are safe.' }] }] },
  });
  let hookStep = 0;
  let mainStep = 0;
  const script = (request: RecordedRequest): ScriptedReply => {
    if (!isAgentHook(request)) return mainStep++ === 0 ? toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'true' } }]) : textReply('done');
    switch (hookStep++) {
      case 0:
        return toolCallsReply([{ id: 'r1', name: 'Read', arguments: { file_path: path.join(env.w.ws, 'secret.env') } }]);
      case 1:
        return toolCallsReply([{ id: 'g1', name: 'Grep', arguments: { pattern: 'TOKEN', path: '.', output_mode: 'content' } }]);
      case 2:
        return toolCallsReply([{ id: 'l1', name: 'Glob', arguments: { pattern: '**/*.env' } }]);
      default:
        return textReply('{"ok": true}');
    }
  };
  const { server } = await env.runPrompt({ script, trusted: true, mode: 'bypassPermissions' });

  expect(hookStep).toBe(4);
  const hookRequests = server.requests.filter(isAgentHook);
  const toolResults = (hookRequests.at(-1)?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
  expect(toolResults).toHaveLength(3);
  expect(toolResults[0]).toMatch(/denied|Read\(secret\.env\)/i);
  expect(toolResults[1]).toContain('notes.txt');
  expect(toolResults.join('\n')).not.toContain('hunter2');
  expect(toolResults[2]).not.toContain('secret.env');
});
