import { describe, expect, it } from 'vitest';
import { interpretCommandResult } from '../../../../src/hooks/actions/interpretCommandResult';
import { salvageCutJson } from '../../../../src/hooks/actions/salvageCutJson';
import type { HookEvent } from '../../../../src/hooks/hookEvent';

/**
 * Hook stdout cut at the output cap must never read as "proceed". What the processRunner
 * hands over for a 1 MiB cap is simulated by cutting the text and setting the flag.
 */

const CAP = 1024 * 1024;
const cutAt = (text: string, bytes = CAP): string => Buffer.from(text).subarray(0, bytes).toString('utf8');
const cutRun = (event: HookEvent, exitCode: number, stdout: string, stderr = '', flags: { stdout?: boolean; stderr?: boolean } = { stdout: true }) =>
  interpretCommandResult(event, exitCode, stdout, stderr, './hook.sh', undefined, {
    stdoutTruncated: flags.stdout ?? false,
    stderrTruncated: flags.stderr ?? false,
    maxOutputBytes: CAP,
  });
const big = 'x'.repeat(CAP + 10);

describe('exit 0 with stdout cut at the cap', () => {
  it('a deny whose decision comes after the cut: failed (so continueOnFailure:false blocks), with the cause named', () => {
    const stdout = cutAt(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: big, permissionDecision: 'deny' } }));
    expect(cutRun('PreToolUse', 0, stdout)).toEqual({
      status: 'failed',
      outcome: {},
      error: 'stdout exceeded 1 MiB; output cut, hook treated as failed',
      failureReason: 'outputTooLarge',
    });
  });

  it('a deny stated before the cut is kept, with its reason and a note', () => {
    const stdout = cutAt(
      JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm', additionalContext: big },
      }),
    );
    const result = cutRun('PreToolUse', 0, stdout);
    expect(result.status).toBe('ok');
    expect(result.outcome).toEqual({ decision: 'deny', reason: 'no rm [hook stdout exceeded 1 MiB and was cut; its blocking decision was kept]' });
  });

  it('block, continue:false, ask and a PermissionRequest deny are kept; Stop blocks become continue', () => {
    expect(cutRun('PreToolUse', 0, cutAt(JSON.stringify({ decision: 'block', systemMessage: big }))).outcome.decision).toBe('deny');
    expect(cutRun('PreToolUse', 0, cutAt(JSON.stringify({ continue: false, stopReason: 'halt', systemMessage: big }))).outcome).toMatchObject({
      decision: 'stop',
      reason: expect.stringMatching(/^halt /),
    });
    expect(
      cutRun('PreToolUse', 0, cutAt(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', additionalContext: big } })))
        .outcome.decision,
    ).toBe('ask');
    expect(
      cutRun(
        'PermissionRequest',
        0,
        cutAt(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: big } } })),
      ).outcome.decision,
    ).toBe('deny');
    expect(cutRun('Stop', 0, cutAt(JSON.stringify({ decision: 'block', reason: 'tests first', systemMessage: big }))).outcome.decision).toBe('continue');
  });

  it('an allow or a rewrite from cut output is never used: the hook failed', () => {
    const allow = cutAt(
      JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'rm -rf /' }, additionalContext: big },
      }),
    );
    expect(cutRun('PreToolUse', 0, allow)).toMatchObject({ status: 'failed', failureReason: 'outputTooLarge' });
  });

  it('cut plain text is a failure too, not context', () => {
    expect(cutRun('SessionStart', 0, cutAt(big))).toMatchObject({ status: 'failed', error: 'stdout exceeded 1 MiB; output cut, hook treated as failed' });
  });

  it('the message names the cap that applied', () => {
    const r = interpretCommandResult('PreToolUse', 0, 'x'.repeat(100), '', 'h', undefined, { stdoutTruncated: true, maxOutputBytes: 64 * 1024 });
    expect(r.error).toBe('stdout exceeded 64 KiB; output cut, hook treated as failed');
  });
});

describe('exit 2 and other codes with cut output', () => {
  it('exit 2 with stderr cut at the cap still blocks, and says the reason was cut', () => {
    const r = cutRun('PreToolUse', 2, '', cutAt(`rm is forbidden ${big}`), { stderr: true });
    expect(r.status).toBe('ok');
    expect(r.outcome.decision).toBe('deny');
    expect(r.outcome.reason).toMatch(/^rm is forbidden x+… \[stderr exceeded 1 MiB and was cut\]$/);
  });

  it('exit 2 with stdout cut still blocks (stdout is not read on exit 2)', () => {
    expect(cutRun('PreToolUse', 2, cutAt(big), 'no').outcome).toEqual({ decision: 'deny', reason: 'no' });
  });
});

describe('exit 0 JSON nested too deep', () => {
  it('JSON deeper than 64 levels is a failure naming the cause (it would overflow the stack downstream)', () => {
    const stdout = `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":${'['.repeat(5000)}1${']'.repeat(5000)}}}`;
    expect(interpretCommandResult('PostToolUse', 0, stdout, '', 'h')).toEqual({
      status: 'failed',
      outcome: {},
      error: 'hook output JSON is nested deeper than 64 levels',
    });
  });
  it('64 levels are fine', () => {
    const stdout = `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":${'['.repeat(62)}1${']'.repeat(62)}}}`;
    expect(interpretCommandResult('PostToolUse', 0, stdout, '', 'h')).toMatchObject({ status: 'ok', outcome: { updatedResult: expect.any(Array) } });
  });
});

describe('salvageCutJson', () => {
  it('keeps every value completed before the cut and closes what is open', () => {
    expect(salvageCutJson('{"a":1,"b":"xy')).toEqual({ a: 1 });
    expect(salvageCutJson('{"a":{"b":[1,2,{"c":tr')).toEqual({ a: { b: [1, 2, {}] } });
    expect(salvageCutJson('{"a":"}{,]","b":2,"c"')).toEqual({ a: '}{,]', b: 2 });
    expect(salvageCutJson('{"a":"q\\"uote","b":')).toEqual({ a: 'q"uote' });
    expect(salvageCutJson('{')).toEqual({});
  });
  it('a whole object is returned as is; non-objects and garbage give undefined', () => {
    expect(salvageCutJson('{"a":1}trailing')).toEqual({ a: 1 });
    expect(salvageCutJson('[1,2')).toBeUndefined();
    expect(salvageCutJson('{"a" "b",')).toBeUndefined();
    expect(salvageCutJson(`{"a":${'['.repeat(100)}`)).toBeUndefined();
  });
});
