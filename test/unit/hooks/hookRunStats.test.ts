import { describe, expect, it } from 'vitest';
import { formatHookStats, HookRunStats, timeAgo } from '../../../src/hooks/hookRunStats';
import type { HookRunRecord } from '../../../src/hooks/hookRunTypes';
import type { HookSource } from '../../../src/configFiles/hookSource';

const SOURCE: HookSource = {
  kind: 'file',
  scope: 'project',
  file: '/ws/.claude/settings.json',
  displayFile: '.claude/settings.json',
  jsonPath: 'hooks.PreToolUse[0].hooks[0]',
};
const ID = '.claude/settings.json › hooks.PreToolUse[0].hooks[0]';
let n = 0;

function run(over: Partial<HookRunRecord>): HookRunRecord {
  n++;
  return {
    runId: `r${n}`,
    occurrenceId: `o${n}`,
    sessionId: 's',
    agentId: 'main',
    parentAgentId: null,
    agentType: 'main',
    event: 'PreToolUse',
    hookId: `config:${ID}`,
    hookLabel: 'command: ./check.sh',
    actionKind: 'command',
    source: SOURCE,
    input: { tool_name: 'Bash' },
    startedAt: 1_000_000,
    status: 'ok',
    durationMs: 10,
    ...over,
  };
}

describe('HookRunStats', () => {
  it('counts runs and failures per hook id, keeps the latest outcome and the median duration', () => {
    const stats = new HookRunStats();
    stats.add(run({ startedAt: 1000, durationMs: 40, outcome: { decision: 'allow' } as never }));
    stats.add(run({ startedAt: 3000, durationMs: 42, status: 'blocked', outcome: { decision: 'deny', reason: 'no' } as never }));
    stats.add(run({ startedAt: 2000, durationMs: 900, status: 'failed', error: 'exit 1' }));
    // A record still running does not count.
    stats.add(run({ startedAt: 4000, status: 'running', durationMs: undefined }));
    const got = stats.get(ID)!;
    expect(got).toMatchObject({ runs: 3, failures: 1, last: { word: 'deny', at: 3000 }, medianMs: 42 });
    expect(formatHookStats(got, 3000 + 5 * 60_000)).toBe('3 runs · last: deny 5 min ago · median 42 ms · 1 failure');
    expect(stats.get('.claude/settings.json › hooks.Stop[0].hooks[0]')).toBeUndefined();
    expect(formatHookStats(undefined, 0)).toBe('no runs yet in this workspace');
  });

  it('counts an ask once when it is reported again settled, showing how it was settled', () => {
    const stats = new HookRunStats();
    const asked = run({ status: 'asked', outcome: { decision: 'ask' } as never });
    stats.add(asked);
    stats.add({ ...asked, permission: { decision: 'allow', decidedBy: 'user' } });
    expect(stats.get(ID)).toMatchObject({ runs: 1, last: { word: 'asked → allow' } });
    expect(stats.lastInput(ID)).toEqual({ tool_name: 'Bash' });
  });

  it('ignores code hooks and forgets everything on clear', () => {
    const stats = new HookRunStats();
    expect(stats.add(run({ source: { kind: 'code', label: 'built-in: max steps' } }))).toBeUndefined();
    stats.add(run({}));
    stats.clear();
    expect(stats.get(ID)).toBeUndefined();
  });

  it('says how long ago in words', () => {
    expect(timeAgo(10_000)).toBe('just now');
    expect(timeAgo(3 * 3_600_000)).toBe('3 h ago');
    expect(timeAgo(72 * 3_600_000)).toBe('3 d ago');
  });
});
