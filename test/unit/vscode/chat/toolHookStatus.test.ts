import { describe, expect, it } from 'vitest';
import { ToolHookStatus, type ToolHookStatusUpdate } from '../../../../src/vscode/chat/toolHookStatus';
import { textReply, toolCallsReply } from '../../../support/openAiTestServer';
import { useRuntimeEnv } from '../../agent/runtimeHarness';

const env = useRuntimeEnv();

describe('ToolHookStatus: a hook statusMessage on its tool card while the hook runs', () => {
  it("reports each hook's statusMessage for the call it runs for, and clears it when the hook ends; hooks without one say nothing", async () => {
    await env.w.settings({
      permissions: { allow: ['Bash'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'true', statusMessage: '  Checking the command…  ' },
              { type: 'command', command: 'exit 0' },
            ],
          },
        ],
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true', statusMessage: 'Formatting the output…' }] }],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true', statusMessage: 'Reading the prompt…' }] }],
      },
    });
    const updates: ToolHookStatusUpdate[] = [];
    const run = await env.runPrompt({
      script: [toolCallsReply([{ id: 'call_1', name: 'Bash', arguments: { command: 'echo hi' } }]), textReply('done')],
      trusted: true,
      setup: (runtime) => runtime.runner.addObserver(new ToolHookStatus((u) => updates.push(u))),
    });

    expect(run.toolStatus.get('call_1')).toBe('done');
    // The prompt's hook has no tool call: not on any card.
    expect(updates).toEqual([
      { agentId: expect.any(String), toolUseId: 'call_1', text: 'Checking the command…' },
      { agentId: expect.any(String), toolUseId: 'call_1' },
      { agentId: expect.any(String), toolUseId: 'call_1', text: 'Formatting the output…' },
      { agentId: expect.any(String), toolUseId: 'call_1' },
    ]);
  });
});
