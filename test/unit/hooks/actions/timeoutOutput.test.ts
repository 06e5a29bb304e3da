import { describe, expect, it } from 'vitest';
import { CommandHookAction } from '../../../../src/hooks/actions/commandHookAction';
import { forEvent } from '../../../../src/hooks/hookContext';
import { HookRegistry } from '../../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../../src/hooks/hookRunner';

const env = { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', agent_id: 'main', parent_agent_id: null, agent_type: 'main' };

describe('a command hook that times out', () => {
  it('is recorded as timed-out with what it printed before it was killed', async () => {
    const registry = new HookRegistry();
    registry.register({
      event: 'PreToolUse',
      action: new CommandHookAction('echo "checking the diff"; echo "slow tool" >&2; sleep 30'),
      timeoutMs: 300,
      source: { kind: 'code', label: 'test' },
    });
    const runner = new HookRunner(registry, { projectDir: '/tmp' });
    const result = await runner.run(
      'PreToolUse',
      forEvent('PreToolUse', env, { permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' }),
    );
    const [record] = result.records;
    expect(record).toMatchObject({ status: 'timed-out', error: 'timed out after 300 ms' });
    expect(record?.raw?.stdout).toContain('checking the diff');
    expect(record?.raw?.stderr).toContain('slow tool');
    // Fail-open: a timed-out hook decides nothing.
    expect(result.decision).toBeUndefined();
  });
});
