import { describe, expect, it } from 'vitest';
import { clineFormat } from '../../../../src/hooks/formats/cline/clineFormat';
import { clineVerdict } from '../../../../src/hooks/formats/cline/clineRuntime';
import type { FormatBinding, FormatRun } from '../../../../src/hooks/formats/hookFormat';
import type { HookMatcher } from '../../../../src/hooks/matchers/hookMatcher';

const binding: FormatBinding = { format: 'cline', nativeEvent: 'PreToolUse' };
const run = (over: Partial<FormatRun>): FormatRun => ({ event: 'PreToolUse', binding, exitCode: 0, stdout: '', stderr: '', input: {}, ...over });
const where = (name: string) => ({ file: `/ws/.clinerules/hooks/${name}`, displayFile: `.clinerules/hooks/${name}`, scope: 'project' as const });

describe('Cline hook scripts', () => {
  it('a script named after an event is one hook running that file; other names are not listed; a missing shebang warns', () => {
    expect(clineFormat.directoryEntry?.('PreToolUse')).toBe(true);
    expect(clineFormat.directoryEntry?.('README.md')).toBe(false);
    const content = clineFormat.parse('#!/usr/bin/env bash\n', where("Pre'ToolUse".replace("'", '')));
    expect(content.hooks).toEqual([expect.objectContaining({ event: 'PreToolUse', command: "'/ws/.clinerules/hooks/PreToolUse'" })]);
    expect(clineFormat.parse('echo hi\n', where('PreToolUse')).diagnostics).toEqual([expect.objectContaining({ severity: 'warning' })]);
  });

  it('TaskStart runs on a new session, TaskResume on a resumed one', () => {
    const start = clineFormat.compileMatcher({ format: 'cline', nativeEvent: 'TaskStart' }, 'SessionStart') as HookMatcher;
    expect(start.matches({ event: 'SessionStart', input: { source: 'startup' } })).toBe(true);
    expect(start.matches({ event: 'SessionStart', input: { source: 'resume' } })).toBe(false);
  });

  it('output: JSON honoured whatever the exit code; cancel denies a tool and stops a task; no JSON with a failure fails open; context cut at 50,000', () => {
    expect(clineVerdict(run({ exitCode: 1, stdout: '{"cancel":true,"errorMessage":"no"}' }))).toMatchObject({ outcome: { decision: 'deny', reason: 'no' } });
    expect(clineVerdict(run({ event: 'PostToolUse', stdout: '{"cancel":true}' }))).toMatchObject({ outcome: { decision: 'stop' } });
    expect(clineVerdict(run({ exitCode: 3, stderr: 'x' }))).toMatchObject({ status: 'failed' });
    expect(clineVerdict(run({ stdout: '{"shouldContinue":false}' }))).toMatchObject({ status: 'failed' });
    const long = clineVerdict(run({ stdout: JSON.stringify({ contextModification: 'x'.repeat(60_000) }) }));
    expect(long.status === 'ok' && long.outcome.additionalContext?.length).toBeLessThan(50_100);
    expect(clineFormat.failClosed(binding)).toBe(false);
  });
});
