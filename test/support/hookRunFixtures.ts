import type { HookRunRecord } from '../../src/hooks/hookRunTypes';

/** A finished-or-running hook run record with sensible defaults. */
export function record(overrides: Partial<HookRunRecord> = {}): HookRunRecord {
  return {
    runId: 'r1',
    occurrenceId: 'o1',
    sessionId: 's1',
    agentId: 'main',
    parentAgentId: null,
    agentType: 'main',
    event: 'PreToolUse',
    matchValue: 'Bash',
    hookId: 'h1',
    hookLabel: './check.sh',
    actionKind: 'command',
    source: {
      kind: 'file',
      scope: 'project',
      file: '/ws/.claude/settings.json',
      displayFile: '.claude/settings.json',
      jsonPath: 'hooks.PreToolUse[0].hooks[0]',
    },
    input: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' } },
    startedAt: 1_700_000_000_000,
    status: 'running',
    ...overrides,
  };
}
