import { describe, expect, it } from 'vitest';
import type { HookConfig } from '../../../src/hooks/config/hookConfigLoader';
import type { LoadedHook } from '../../../src/hooks/config/loadedHook';
import { explainHooks } from '../../../src/hooks/explain/explainHooks';
import { CommandHookAction } from '../../../src/hooks/actions/commandHookAction';
import { parseHookContext } from '../../../src/hooks/hookContext';
import { sampleHookInput } from '../../../src/hooks/hookSampleInput';
import { testHookAction } from '../../../src/hooks/hookTester';

// The hook workbench on the model-level events: samples, the hook test runner, `hooks explain`.

const where = { cwd: '/tmp', projectDir: '/tmp', sessionId: 's' };

describe('model-level events in the hook tools', () => {
  it.each(['BeforeInference', 'BeforeToolSelection', 'AfterInference'] as const)(
    'the sample %s input carries llm_request and takes the matcher value as model',
    (event) => {
      const input = sampleHookInput(event, 'gpt-4o', '/p');
      expect(input).toMatchObject({ hook_event_name: event, model: 'gpt-4o', llm_request: { model: 'gpt-4.1' } });
      const checked = parseHookContext(event, { ...input, hookwise: { agent_id: 'main', parent_agent_id: null, agent_type: 'main' } });
      expect(checked.success).toBe(true);
    },
  );

  it('a hook test on captured BeforeInference input reads the rewrite and the synthetic answer', async () => {
    const out = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'BeforeModel',
        llm_request: { config: { temperature: 0 } },
        llm_response: { candidates: [{ content: { role: 'model', parts: ['cached'] } }] },
      },
    });
    const record = await testHookAction(
      new CommandHookAction(`cat >/dev/null; printf '%s' '${out}'`),
      sampleHookInput('BeforeInference', undefined, '/tmp'),
      where,
    );
    expect(record.result).toMatchObject({
      status: 'ok',
      outcome: { llmRequest: { config: { temperature: 0 } }, llmResponse: { candidates: [{ content: { parts: ['cached'] } }] } },
    });
  });

  it('an invalid llm_request fails the hook test with the field named', async () => {
    const out = JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeInference', llm_request: { messages: [{ role: 'robot', content: 'x' }] } } });
    const record = await testHookAction(
      new CommandHookAction(`cat >/dev/null; printf '%s' '${out}'`),
      sampleHookInput('BeforeInference', undefined, '/tmp'),
      where,
    );
    expect(record.result).toMatchObject({ status: 'failed', error: expect.stringContaining('hookSpecificOutput.llm_request.messages.0.role') });
  });

  it('hooks explain tests a model-level matcher against the model', () => {
    const hook = (jsonPath: string, matcher: string): LoadedHook =>
      ({
        event: 'BeforeInference',
        matcher,
        handler: { type: 'command', command: `echo ${jsonPath}` },
        source: { kind: 'file', scope: 'user', file: '/h/.claude/settings.json', displayFile: '~/.claude/settings.json', jsonPath },
        hash: jsonPath,
      }) as LoadedHook;
    const config = {
      hooks: [hook('a', 'gpt-4.*'), hook('b', 'claude-.*')],
      diagnostics: [],
      disabled: false,
      disabledBy: [],
      permissions: { rules: [] } as never,
      duplicates: [],
    } as HookConfig;
    const rows = explainHooks(config, {
      event: 'BeforeInference',
      input: sampleHookInput('BeforeInference', 'gpt-4.1', '/p'),
      cwd: '/p',
      trust: { trusted: true },
    });
    expect(rows.map((r) => [r.command, r.outcome])).toEqual([
      ['echo a', 'would run'],
      ['echo b', 'skipped'],
    ]);
    expect(rows[1]?.reason).toMatch(/model/);
  });
});
