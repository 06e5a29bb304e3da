import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { jsonLinesOf, recordTo, useLifecycleEnv } from '../../support/lifecycleHarness';

const env = useLifecycleEnv();

const agentCall = (id: string, prompt: string) => ({ id, name: 'Agent', arguments: { description: 'a subtask', prompt, subagent_type: 'helper' } });
const bash = (id: string, command: string) => ({ id, name: 'Bash', arguments: { command } });

describe('once: true in an agent file (hookwise -p, real hook processes)', () => {
  it("the agent's PreToolUse hook runs once per session, though the agent runs twice and calls Bash twice", async () => {
    const { w } = env;
    const seen = path.join(w.ws, 'seen.jsonl');
    const hook = await env.hook('record', recordTo(seen));
    await w.write(
      '.claude/agents/helper.md',
      [
        '---',
        'name: helper',
        'description: does small shell tasks',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        '        - type: command',
        `          command: ${JSON.stringify(hook)}`,
        '          once: true',
        '---',
        'You run one shell command.',
        '',
      ].join('\n'),
    );
    await w.settings({ permissions: { allow: ['Bash'] } });
    const s = await env.serve([
      toolCallsReply([agentCall('call_a1', 'echo one')]),
      toolCallsReply([bash('b1', 'echo one')]),
      textReply('ran echo one'),
      toolCallsReply([agentCall('call_a2', 'echo two')]),
      toolCallsReply([bash('b2', 'echo two')]),
      textReply('ran echo two'),
      textReply('Both done.'),
    ]);

    const out = await env.run(s, 'run both');

    expect(out.code).toBe(0);
    expect(s.requests).toHaveLength(7);
    expect(jsonLinesOf(seen).map((i) => (i.tool_input as { command: string }).command)).toEqual(['echo one']);
  });
});
