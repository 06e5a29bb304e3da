import { describe, expect, it } from 'vitest';
import { hookTestCaseSchema } from '../../../../src/hooks/explain/hookTestCase';
import { defaultTestCaseName, testCaseFileName, testCaseFromRuns } from '../../../../src/vscode/hookTests/testCaseFromRuns';
import { record } from '../../../support/hookRunFixtures';

const input = {
  session_id: 'sess-123',
  transcript_path: '/home/u/.hookwise/t.jsonl',
  cwd: '/ws',
  prompt_id: '113910f2-d291-4f56-8536-b0c6a1287dfb',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'rm -rf build' },
  tool_use_id: 'toolu_1',
};

describe('testCaseFromRuns', () => {
  it('keeps the input without session fields and expects the strongest decision with its reason', () => {
    const runs = [
      record({ runId: 'a', input, status: 'ok', outcome: { decision: 'allow' } }),
      record({ runId: 'b', input, status: 'blocked', outcome: { decision: 'deny', reason: 'rm is not allowed here\nsecond line' } }),
      record({ runId: 'c', input, status: 'asked', outcome: { decision: 'ask', reason: 'sure?' }, permission: { decision: 'allow', decidedBy: 'user' } }),
    ];
    const testCase = testCaseFromRuns('no rm', runs);
    expect(testCase).toEqual({
      name: 'no rm',
      event: 'PreToolUse',
      input: { permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } },
      expect: { decision: 'deny', reason: 'rm is not allowed here' },
    });
    expect(hookTestCaseSchema.safeParse(testCase).success).toBe(true);
  });

  it("expects a model-level hook's change in Hook Runs' words, so the case checks the rewrite itself", () => {
    const reply = { llm_response: { text: 'key sk-1' }, hook_event_name: 'AfterInference' };
    const run = record({ event: 'AfterInference', input: reply, status: 'ok', outcome: { llmResponse: { text: '[REDACTED]' } }, effect: 'reply redacted' });
    const testCase = testCaseFromRuns('redacts', [run]);
    expect(testCase.expect).toEqual({ decision: 'none', changed: 'reply redacted' });
    expect(testCase.input).toMatchObject({ llm_response: { text: 'key sk-1' } });
    expect(hookTestCaseSchema.safeParse(testCase).success).toBe(true);
  });

  it('says none when no hook decided, ignores failed runs, and maps a Stop continue to block', () => {
    expect(testCaseFromRuns('quiet', [record({ status: 'ok', outcome: {} }), record({ runId: 'x', status: 'failed', error: 'boom' })]).expect).toEqual({
      decision: 'none',
    });
    const stop = record({
      event: 'Stop',
      input: { hook_event_name: 'Stop', stop_hook_active: false },
      status: 'ok',
      outcome: { decision: 'continue', reason: 'tests fail' },
    });
    expect(testCaseFromRuns('stop', [stop])).toMatchObject({
      event: 'Stop',
      input: { stop_hook_active: false },
      expect: { decision: 'block', reason: 'tests fail' },
    });
  });

  it('records the format of the other agent’s hook that decided, so the case checks that hook still runs', () => {
    const copilot = {
      kind: 'file' as const,
      scope: 'project' as const,
      file: '/ws/.github/hooks/guard.json',
      displayFile: '.github/hooks/guard.json',
      jsonPath: 'hooks.preToolUse[0]',
      format: 'Copilot',
    };
    const runs = [
      record({ runId: 'a', input, status: 'ok', outcome: { decision: 'allow' } }),
      record({ runId: 'b', input, source: copilot, status: 'blocked', outcome: { decision: 'deny', reason: 'no rm' } }),
    ];
    const testCase = testCaseFromRuns('copilot no rm', runs);
    expect(testCase).toMatchObject({ format: 'copilot', expect: { decision: 'deny', reason: 'no rm' } });
    expect(hookTestCaseSchema.safeParse(testCase).success).toBe(true);
    // No decision: the format when every run was that agent's, else none.
    expect(testCaseFromRuns('quiet', [record({ source: copilot, status: 'ok', outcome: {} })]).format).toBe('copilot');
    expect(
      testCaseFromRuns('mixed', [record({ source: copilot, status: 'ok', outcome: {} }), record({ runId: 'x', status: 'ok', outcome: {} })]),
    ).not.toHaveProperty('format');
    expect(testCaseFromRuns('claude', [runs[0]!])).not.toHaveProperty('format');
  });

  it('names files safely and proposes a readable name', () => {
    expect(testCaseFileName('../../etc/passwd')).toBe('etc-passwd');
    expect(testCaseFileName('  ')).toBe('hook-test');
    expect(defaultTestCaseName([record({ status: 'blocked', outcome: { decision: 'deny' } })])).toBe('PreToolUse Bash deny');
  });
});
