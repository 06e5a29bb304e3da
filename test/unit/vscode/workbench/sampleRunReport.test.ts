/**
 * The result page of "Run with Sample Input": everything a hook author checks after a run —
 * the decision and reason, status, exit code, time, stdout, stderr, the parsed output and the
 * input — as Markdown that renders right whatever the hook printed.
 */
import { describe, expect, it } from 'vitest';
import type { HookEventResult, HookRunRecord } from '../../../../src/hooks/hookRunTypes';
import { renderSampleRun } from '../../../../src/vscode/workbench/sampleRunReport';
import { record } from '../../../support/hookRunFixtures';

const ID = '.claude/settings.json › hooks.PreToolUse[0].hooks[0]';
const INPUT = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf build' } };

function result(records: HookRunRecord[], extra: Partial<HookEventResult> = {}): HookEventResult {
  return {
    event: 'PreToolUse',
    occurrenceId: 'o1',
    asked: false,
    hasUpdatedResult: false,
    additionalContext: [],
    plainOutputs: [],
    messagesToInject: [],
    metadata: {},
    systemMessages: [],
    suppressOutput: false,
    records,
    failures: records.filter((r) => r.status === 'failed' || r.status === 'timed-out'),
    ...extra,
  };
}

describe('Run with Sample Input result page', () => {
  it('a command hook that denied: decision, reason, exit code, times, stdout, stderr, parsed output, input', () => {
    const denied = record({
      status: 'blocked',
      durationMs: 42,
      outcome: { decision: 'deny', reason: "'rm -rf' is not allowed" },
      raw: { stdout: '{"decision":"deny"}\n', stderr: 'checked rm -rf build\n', exitCode: 2 },
    });
    const page = renderSampleRun({ id: ID, result: result([denied], { decision: 'deny' }), input: INPUT, elapsedMs: 1234 });
    const lines = page.split('\n');
    expect(lines[0]).toBe('# Run with Sample Input: PreToolUse');
    expect(page).toContain(`Hook \`${ID}\``);
    expect(lines).toEqual(
      expect.arrayContaining([
        '| Decision | **deny** |',
        "| Reason | 'rm -rf' is not allowed |",
        '| Status | blocked |',
        '| Exit code | 2 |',
        '| Hook time | 42 ms |',
        '| Total time | 1.2 s |',
        '| Command | `./check.sh` (command) |',
      ]),
    );
    const section = (title: string): string => page.split(`## ${title}\n\n`)[1]?.split('\n## ')[0] ?? '';
    expect(section('stdout')).toBe('```text\n{"decision":"deny"}\n```\n');
    expect(section('stderr')).toBe('```text\nchecked rm -rf build\n```\n');
    expect(JSON.parse(section('Hook output (parsed)').replace(/^```json\n|```\n$/g, ''))).toEqual(denied.outcome);
    expect(JSON.parse(section('Input').replace(/^```json\n|```\n$/g, ''))).toEqual(INPUT);
  });

  it('output that would break the Markdown stays inside its block and its cell', () => {
    const odd = record({
      status: 'ok',
      durationMs: 3,
      outcome: { reason: 'a | b\nc' },
      raw: { stdout: 'before\n```\n# not a heading\n', stderr: '', exitCode: 0 },
    });
    const page = renderSampleRun({ id: ID, result: result([odd]), input: INPUT, elapsedMs: 5 });
    expect(page).toContain('| Reason | a \\| b c |');
    expect(page).toContain('````text\nbefore\n```\n# not a heading\n````');
    expect(page).toContain('## stderr\n\n_(empty)_');
  });

  it('a hook whose matcher does not match the edited input: says it did not run, and shows the input', () => {
    const page = renderSampleRun({ id: ID, result: result([]), input: { ...INPUT, tool_name: 'Read' }, elapsedMs: 2 });
    expect(page).toContain('**The hook did not run for this input.** Its matcher does not match this input');
    expect(page).not.toContain('| Decision |');
    expect(page).toContain('"tool_name": "Read"');
  });

  it('a hook that timed out says so, with no exit code', () => {
    const timedOut = record({
      status: 'timed-out',
      durationMs: 5000,
      error: 'timed out after 5 s',
      raw: { stdout: '', stderr: '', exitCode: null, signal: 'SIGTERM' },
    });
    const page = renderSampleRun({ id: ID, result: result([timedOut]), input: INPUT, elapsedMs: 5100 });
    expect(page).toContain('| Status | timed-out |');
    expect(page).toContain('| Reason | timed out after 5 s |');
    expect(page).toContain('| Exit code | none (SIGTERM) |');
  });
});
