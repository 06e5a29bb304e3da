import { describe, expect, it } from 'vitest';
import { loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { bindLoadedHooks } from '../../../../src/hooks/hookBinder';
import { forEvent } from '../../../../src/hooks/hookContext';
import { HookRegistry } from '../../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../../src/hooks/hookRunner';
import { memoryFs } from './configTestKit';

const FILE = '/ws/.claude/settings.json';
const env = { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', agent_id: 'main', parent_agent_id: null, agent_type: 'main' };
/** A policy hook that takes a moment, then denies. */
const SLOW_DENY = `sleep 0.3; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"policy says no"}}'`;

async function load(timeout: number | string): Promise<Awaited<ReturnType<typeof loadHookConfig>>> {
  // Raw text, so values JSON.stringify cannot write (1e999 → Infinity) reach the loader.
  const text = `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":${JSON.stringify(SLOW_DENY)},"timeout":${timeout}}]}]}}`;
  return loadHookConfig([{ kind: 'claudeSettingsFile', scope: 'project', file: FILE, displayFile: '.claude/settings.json', folder: '/ws' }], {
    fs: memoryFs({ [FILE]: text }),
  });
}

async function runBash(config: Awaited<ReturnType<typeof loadHookConfig>>) {
  const registry = new HookRegistry();
  const { inits, problems } = bindLoadedHooks(config.hooks, {});
  expect(problems).toEqual([]);
  registry.setConfigHooks(1, inits);
  const runner = new HookRunner(registry, { projectDir: '/tmp' });
  return runner.run(
    'PreToolUse',
    forEvent('PreToolUse', env, { permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' }),
  );
}

describe('hook timeouts past what a timer can hold (docs/security.md)', () => {
  it('a timeout of one year is capped at 600 s with a warning at its JSON path, and the slow deny still applies', async () => {
    const config = await load(31536000);
    expect(config.hooks[0]?.handler.timeout).toBe(600);
    expect(config.diagnostics).toEqual([
      expect.objectContaining({
        displayFile: '.claude/settings.json',
        jsonPath: 'hooks.PreToolUse[0].hooks[0].timeout',
        severity: 'warning',
        code: 'timeoutInMilliseconds',
        message: expect.stringContaining('loaded as 600, the maximum'),
      }),
    ]);
    // On main the 31536000000 ms timer overflowed and fired after 1 ms: timed out, no decision.
    const result = await runBash(config);
    expect(result.records[0]?.status).toBe('blocked');
    expect(result.decision).toBe('deny');
  });

  it('a timeout just over the cap (700 s) is capped with its own warning', async () => {
    const config = await load(700);
    expect(config.hooks[0]?.handler.timeout).toBe(600);
    expect(config.diagnostics).toEqual([
      expect.objectContaining({
        code: 'timeoutOutOfRange',
        jsonPath: 'hooks.PreToolUse[0].hooks[0].timeout',
        message: 'timeout 700 s is over the 600 s maximum; loaded as 600',
      }),
    ]);
  });

  it.each([
    ['-5', -5],
    ['0', 0],
    ['1e999', Infinity],
  ])('timeout %s: the hook still loads with its default timeout and a warning (it used to be skipped: a silently dropped policy)', async (text, value) => {
    const config = await load(text);
    expect(config.hooks).toHaveLength(1);
    expect(config.hooks[0]?.handler.timeout).toBeUndefined();
    expect(config.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'timeoutOutOfRange',
        jsonPath: 'hooks.PreToolUse[0].hooks[0].timeout',
        message: `timeout must be a positive number of seconds, got ${String(value)}; the hook's default timeout is used`,
      }),
    ]);
    const result = await runBash(config);
    expect(result.decision).toBe('deny');
  });

  it('a programmatic hook with a timeout past 2^31-1 ms is not cut to 1 ms', async () => {
    const registry = new HookRegistry();
    const { CommandHookAction } = await import('../../../../src/hooks/actions/commandHookAction');
    registry.register({ event: 'PreToolUse', action: new CommandHookAction(SLOW_DENY), timeoutMs: 31536000 * 1000, source: { kind: 'code', label: 'test' } });
    const runner = new HookRunner(registry, { projectDir: '/tmp' });
    const result = await runner.run(
      'PreToolUse',
      forEvent('PreToolUse', env, { permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' }),
    );
    expect(result.decision).toBe('deny');
  });
});
