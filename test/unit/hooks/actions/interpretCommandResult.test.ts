import { describe, expect, it } from 'vitest';
import type { HookEvent } from '../../../../src/hooks/hookEvent';
import { blockingOutcome, interpretCommandResult } from '../../../../src/hooks/actions/interpretCommandResult';

const run = (event: HookEvent, exitCode: number | null, stdout: string, stderr = '', signal?: string) =>
  interpretCommandResult(event, exitCode, stdout, stderr, './hook.sh', signal);
const json = (value: unknown) => JSON.stringify(value);

describe('interpretCommandResult — exit 0, plain stdout', () => {
  it('empty stdout: ok, no decision, no plain output', () => {
    expect(run('PreToolUse', 0, '')).toEqual({ status: 'ok', outcome: {} });
    expect(run('PreToolUse', 0, '  \n')).toEqual({ status: 'ok', outcome: {} });
  });
  it('plain text is trimmed plainOutput (the runner routes it per event)', () => {
    expect(run('UserPromptSubmit', 0, '  hello\nworld \n')).toEqual({ status: 'ok', outcome: {}, plainOutput: 'hello\nworld' });
    expect(run('PreCompact', 0, 'keep files\n').plainOutput).toBe('keep files');
  });
  it('text starting with { that is not JSON is plain text, not a failure (flagged, so a fail-closed hook can fail on it)', () => {
    expect(run('PreToolUse', 0, '{ not json')).toEqual({ status: 'ok', outcome: {}, plainOutput: '{ not json', malformedJson: expect.any(String) });
  });
  it('a JSON array or string is plain text (only objects starting with { are JSON output)', () => {
    expect(run('SessionStart', 0, '[1,2]').plainOutput).toBe('[1,2]');
  });
  it('stderr is ignored on exit 0', () => {
    expect(run('PreToolUse', 0, '', 'warning: x')).toEqual({ status: 'ok', outcome: {} });
  });
});

describe('interpretCommandResult — exit 0, JSON', () => {
  it('empty object: ok, no opinion', () => {
    expect(run('PreToolUse', 0, '{}')).toEqual({ status: 'ok', outcome: {} });
  });
  it('surrounding whitespace is trimmed before parsing', () => {
    expect(run('PreToolUse', 0, '\n  {"decision":"approve"}  \n').outcome).toEqual({ decision: 'allow' });
  });
  it('decision approve → allow', () => {
    expect(run('PreToolUse', 0, json({ decision: 'approve', reason: 'fine' })).outcome).toEqual({ decision: 'allow', reason: 'fine' });
  });
  it('decision block → deny with reason, default "Blocked by hook"', () => {
    expect(run('PreToolUse', 0, json({ decision: 'block', reason: 'no' })).outcome).toEqual({ decision: 'deny', reason: 'no' });
    expect(run('UserPromptSubmit', 0, json({ decision: 'block' })).outcome).toEqual({ decision: 'deny', reason: 'Blocked by hook' });
    expect(run('PostToolUse', 0, json({ decision: 'block', reason: '' })).outcome).toEqual({ decision: 'deny', reason: 'Blocked by hook' });
  });
  it('decision block on Stop/SubagentStop → continue with the reason', () => {
    expect(run('Stop', 0, json({ decision: 'block', reason: 'run the tests' })).outcome).toEqual({ decision: 'continue', reason: 'run the tests' });
    expect(run('SubagentStop', 0, json({ decision: 'block' })).outcome).toEqual({ decision: 'continue', reason: 'Blocked by hook' });
  });
  it('continue:false → stop with stopReason, over a block', () => {
    expect(run('Stop', 0, json({ continue: false, stopReason: 'budget', decision: 'block', reason: 'x' })).outcome).toEqual({
      decision: 'stop',
      reason: 'budget',
    });
    expect(run('PreToolUse', 0, json({ continue: false })).outcome).toEqual({ decision: 'stop', reason: 'Stopped by hook' });
  });
  it('continue:true changes nothing', () => {
    expect(run('PreToolUse', 0, json({ continue: true })).outcome).toEqual({});
  });
  it('systemMessage and suppressOutput are carried', () => {
    expect(run('Notification', 0, json({ systemMessage: 'hi', suppressOutput: true })).outcome).toEqual({ systemMessage: 'hi', suppressOutput: true });
  });
  it('unknown top-level keys pass (non-strict, like Claude Code) but each one is a warning on the run', () => {
    expect(run('PreToolUse', 0, json({ futureKey: 1, decision: 'approve' }))).toEqual({
      status: 'ok',
      outcome: { decision: 'allow' },
      warnings: [`unknown field "futureKey" in the hook's JSON output; it is ignored`],
    });
  });
  it('a typo in a field name is a warning with the closest known name', () => {
    const r = run('PreToolUse', 0, json({ contineu: false, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecison: 'deny' } }));
    expect(r.status).toBe('ok');
    expect(r.outcome).toEqual({});
    expect(r.warnings).toEqual([
      `unknown field "contineu" in the hook's JSON output; it is ignored — did you mean "continue"?`,
      `unknown field "permissionDecison" in hookSpecificOutput for PreToolUse; it is ignored — did you mean "permissionDecision"?`,
    ]);
  });
  it('the alternate output spellings: continue_execution false stops, stop_reason is the reason, system_message and suppress_logging apply', () => {
    const r = run(
      'PreToolUse',
      0,
      json({ continue_execution: false, stop_reason: 'Dangerous command blocked', system_message: 'note', suppress_logging: true }),
    );
    expect(r).toEqual({ status: 'ok', outcome: { decision: 'stop', reason: 'Dangerous command blocked', systemMessage: 'note', suppressOutput: true } });
    // Both spellings: a stop is never dropped.
    expect(run('Stop', 0, json({ continue: true, continue_execution: false })).outcome.decision).toBe('stop');
  });
  it('PreToolUse permissionDecision allow|deny|ask with reason and updatedInput', () => {
    const allow = {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'ok', updatedInput: { command: 'ls' } },
    };
    expect(run('PreToolUse', 0, json(allow)).outcome).toEqual({ decision: 'allow', reason: 'ok', updatedInput: { command: 'ls' } });
    const deny = { reason: 'top', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'specific' } };
    expect(run('PreToolUse', 0, json(deny)).outcome).toEqual({ decision: 'deny', reason: 'specific' });
    const denyNoReason = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } };
    expect(run('PreToolUse', 0, json(denyNoReason)).outcome).toEqual({ decision: 'deny', reason: 'Blocked by hook' });
    const askTopReason = { reason: 'top', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } };
    expect(run('PreToolUse', 0, json(askTopReason)).outcome).toEqual({ decision: 'ask', reason: 'top' });
  });
  it('PreToolUse: a top-level block is not undone by permissionDecision allow (Claude keeps the blocking error)', () => {
    const mixed = { decision: 'block', reason: 'no', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } };
    expect(run('PreToolUse', 0, json(mixed)).outcome.decision).toBe('deny');
  });
  it('PreToolUse updatedInput without a decision, and additionalContext', () => {
    const out = { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { file_path: '/a' }, additionalContext: 'ctx' } };
    expect(run('PreToolUse', 0, json(out)).outcome).toEqual({ updatedInput: { file_path: '/a' }, additionalContext: 'ctx' });
  });
  it('additionalContext on context events', () => {
    for (const event of ['UserPromptSubmit', 'SessionStart', 'SubagentStart', 'PostToolUseFailure', 'BeforeStep'] as const) {
      expect(run(event, 0, json({ hookSpecificOutput: { hookEventName: event, additionalContext: 'c' } })).outcome).toEqual({ additionalContext: 'c' });
    }
  });
  it('PostToolUse updatedMCPToolOutput / updatedToolOutput → updatedResult (all tools)', () => {
    expect(run('PostToolUse', 0, json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedMCPToolOutput: { a: 1 } } })).outcome).toEqual({
      updatedResult: { a: 1 },
    });
    expect(
      run('PostToolUse', 0, json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: 'new', additionalContext: 'c' } })).outcome,
    ).toEqual({ updatedResult: 'new', additionalContext: 'c' });
    expect(run('PostToolUse', 0, json({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: null } })).outcome).toEqual({
      updatedResult: null,
    });
    expect('updatedResult' in run('PostToolUse', 0, json({ hookSpecificOutput: { hookEventName: 'PostToolUse' } })).outcome).toBe(false);
  });
  it('PermissionRequest allow (+updatedInput), deny (message), deny+interrupt → stop', () => {
    const allow = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'ls' } } } };
    expect(run('PermissionRequest', 0, json(allow)).outcome).toEqual({ decision: 'allow', updatedInput: { command: 'ls' } });
    const deny = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } } };
    expect(run('PermissionRequest', 0, json(deny)).outcome).toEqual({ decision: 'deny', reason: 'no' });
    const denyDefault = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny' } } };
    expect(run('PermissionRequest', 0, json(denyDefault)).outcome).toEqual({ decision: 'deny', reason: 'Permission denied by hook' });
    const interrupt = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'halt', interrupt: true } } };
    expect(run('PermissionRequest', 0, json(interrupt)).outcome).toEqual({ decision: 'stop', reason: 'halt' });
  });
});

describe('interpretCommandResult — JSON failures', () => {
  it('JSON that fails the schema → failed "JSON validation failed: …"', () => {
    const r = run('PreToolUse', 0, json({ decision: 'maybe' }));
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^JSON validation failed: decision: /);
    expect(r.outcome).toEqual({});
  });
  it('names every failing path', () => {
    const r = run('PreToolUse', 0, json({ continue: 'yes', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'maybe' } }));
    expect(r.error).toContain('continue:');
    expect(r.error).toContain('hookSpecificOutput.permissionDecision:');
  });
  it('hookSpecificOutput without hookEventName fails the schema (Claude requires it)', () => {
    const r = run('SessionStart', 0, json({ hookSpecificOutput: { additionalContext: 'x' } }));
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/^JSON validation failed/);
  });
  it('hookEventName naming another event → failed, not a decision', () => {
    const r = run('PreToolUse', 0, json({ decision: 'block', hookSpecificOutput: { hookEventName: 'PostToolUse' } }));
    expect(r).toMatchObject({ status: 'failed', outcome: {} });
    expect(r.error).toContain('"PostToolUse" but this hook ran for PreToolUse');
  });
  it('PermissionRequest without decision fails the schema', () => {
    expect(run('PermissionRequest', 0, json({ hookSpecificOutput: { hookEventName: 'PermissionRequest' } })).status).toBe('failed');
  });
  it('updatedInput must be an object', () => {
    expect(run('PreToolUse', 0, json({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: 'rm -rf /' } })).status).toBe('failed');
  });
});

describe('interpretCommandResult — exit 2 (blocking)', () => {
  it.each([
    ['PreToolUse', 'deny'],
    ['PermissionRequest', 'deny'],
    ['UserPromptSubmit', 'deny'],
    ['PostToolUse', 'deny'],
    ['PostToolUseFailure', 'deny'],
    ['SubagentStart', 'deny'],
    ['Stop', 'continue'],
    ['SubagentStop', 'continue'],
  ] as const)('%s → %s with stderr as the reason', (event, decision) => {
    expect(run(event, 2, '', '  reason text \n')).toEqual({ status: 'ok', outcome: { decision, reason: 'reason text' } });
  });
  it.each(['Notification', 'SessionStart', 'SessionEnd', 'PreCompact', 'BeforeStep', 'ExecutionEnd'] as const)(
    '%s → no decision, stderr shown to the user',
    (event) => {
      expect(run(event, 2, '', 'oops')).toEqual({ status: 'ok', outcome: { systemMessage: 'oops' } });
    },
  );
  it('empty stderr → "No stderr output"', () => {
    expect(run('PreToolUse', 2, '', '').outcome).toEqual({ decision: 'deny', reason: 'No stderr output' });
  });
  it('blocks even when stdout has JSON that allows (Claude Code ≥ 2.1.90)', () => {
    const allow = json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    expect(run('PreToolUse', 2, allow, 'no').outcome).toEqual({ decision: 'deny', reason: 'no' });
  });
  it('blockingOutcome is exported for reuse', () => {
    expect(blockingOutcome('Stop', 'r')).toEqual({ decision: 'continue', reason: 'r' });
  });
});

describe('interpretCommandResult — other exits', () => {
  it('exit 1 → failed with the stderr head', () => {
    const r = run('PreToolUse', 1, 'not json', 'boom\nline2\n');
    expect(r).toEqual({ status: 'failed', outcome: {}, error: 'Failed with non-blocking status code 1: boom\nline2' });
  });
  it('exit 1 with valid JSON on stdout: the JSON alone decides (JSON is read on every exit code)', () => {
    expect(run('PreToolUse', 1, json({ decision: 'block', reason: 'no' }), 'boom')).toEqual({
      status: 'ok',
      outcome: { decision: 'deny', reason: 'no' },
      jsonOnFailedExit: 'Failed with non-blocking status code 1: boom',
    });
    // Killed by a signal (137 = 128 + SIGKILL through the shell): a crash, whatever it printed.
    expect(run('PreToolUse', 137, json({ decision: 'approve' }), '').status).toBe('failed');
    // Invalid JSON (schema) keeps the non-blocking failure.
    expect(run('PreToolUse', 1, json({ decision: 'maybe' }), 'boom').status).toBe('failed');
  });
  it('exit 1 with empty stderr', () => {
    expect(run('PreToolUse', 1, '').error).toBe('Failed with non-blocking status code 1: No stderr output');
  });
  it('127 → command not found: <cmd>', () => {
    const r = interpretCommandResult('PreToolUse', 127, '', '/bin/sh: 1: nope: not found\n', 'nope --flag', undefined);
    expect(r.status).toBe('failed');
    expect(r.error).toBe('command not found: nope --flag: /bin/sh: 1: nope: not found');
  });
  it('126 → permission denied', () => {
    expect(run('PreToolUse', 126, '', 'Permission denied').error).toBe('permission denied (not executable): ./hook.sh: Permission denied');
  });
  it('killed by a signal', () => {
    expect(run('PreToolUse', null, '', '', 'SIGKILL')).toEqual({ status: 'failed', outcome: {}, error: 'killed by SIGKILL' });
  });
  it('128+n from the shell → killed by that signal', () => {
    expect(run('PreToolUse', 137, '', 'Killed')).toMatchObject({ status: 'failed', error: 'killed by SIGKILL (exit code 137): Killed' });
    expect(run('PreToolUse', 143, '').error).toBe('killed by SIGTERM (exit code 143)');
    expect(run('PreToolUse', 200, '').error).toBe('Failed with non-blocking status code 200: No stderr output');
  });
  it('only the first 5 stderr lines go into the message', () => {
    const stderr = Array.from({ length: 20 }, (_, i) => `line${i}`).join('\n');
    const error = run('PreToolUse', 3, '', stderr).error ?? '';
    expect(error).toContain('line4');
    expect(error).not.toContain('line5');
  });
  it('very long commands are shortened in the message', () => {
    const long = `echo ${'x'.repeat(500)}`;
    const error = interpretCommandResult('Stop', 127, '', '', long).error ?? '';
    expect(error.length).toBeLessThan(200);
  });
});
