import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { elicitationHookAnswer } from '../../../src/mcp/elicitationHooks';
import { HookInputs } from '../../../src/agent/hookInputs';
import { HookwiseRuntime } from '../../../src/runtime/hookwiseRuntime';
import { standardConfigSources } from '../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import type { CliWorkspace } from '../../support/cliHarness';
import { makeCliWorkspace } from '../../support/cliHarness';
import { RecordingModel } from '../agent/agentHarness';

// Elicitation hooks as the MCP client fires them: the runtime's runner, a real command hook.

let w: CliWorkspace;
beforeEach(async () => {
  w = await makeCliWorkspace();
});
afterEach(async () => {
  await w.cleanup();
});

async function fire(command: string) {
  await w.settings({ hooks: { Elicitation: [{ matcher: 'github', hooks: [{ type: 'command', command }] }] } });
  const runtime = new HookwiseRuntime({ projectDir: w.ws, homeDir: w.home, model: new RecordingModel([]), transcriptDir: path.join(w.base, 't') });
  runtime.applyConfig(await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] })), { trusted: true });
  const inputs = new HookInputs({
    envelope: { session_id: 's1', transcript_path: path.join(w.base, 't.jsonl'), cwd: w.ws, agent_id: 'main', parent_agent_id: null, agent_type: 'main' },
    permissionMode: 'default',
  });
  const input = inputs.event('Elicitation', { mcp_server_name: 'github', message: 'Which repository?', mode: 'form', requested_schema: { type: 'object' } });
  return runtime.runner.run('Elicitation', input);
}

describe('Elicitation hooks', () => {
  it('a hook answers for the user with action and content', async () => {
    const out = JSON.stringify({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { repo: 'hookwise' } } });
    expect(elicitationHookAnswer(await fire(`cat > /dev/null; echo '${out}'`))).toEqual({ action: 'accept', content: { repo: 'hookwise' } });
  });

  it('exit 2 declines; a hook that says nothing leaves it to the user', async () => {
    expect(elicitationHookAnswer(await fire(`cat > /dev/null; echo 'no prompts in CI' >&2; exit 2`))).toEqual({ action: 'decline' });
    expect(elicitationHookAnswer(await fire(`cat > /dev/null`))).toBeUndefined();
  });
});
