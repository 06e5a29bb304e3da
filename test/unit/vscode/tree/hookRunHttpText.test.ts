import { describe, expect, it } from 'vitest';
import { renderHookRun } from '../../../../src/vscode/tree/hookRunText';
import { record } from '../../../support/hookRunFixtures';

describe('Hook Runs run document: http hooks, warnings, statusMessage', () => {
  it('an http run shows URL, HTTP status and the response body instead of exit code and stdout', () => {
    const text = renderHookRun(
      record({
        actionKind: 'http',
        hookLabel: 'https://hooks.example.com/pre',
        status: 'failed',
        durationMs: 42,
        error: 'HTTP 503 from https://hooks.example.com/pre: down',
        statusMessage: 'Asking the policy service…',
        raw: { stdout: 'down', stderr: '', exitCode: null, http: { url: 'https://hooks.example.com/pre', status: 503 } },
      }),
    );
    expect(text).toContain('URL');
    expect(text).toContain('https://hooks.example.com/pre');
    expect(text).toMatch(/HTTP status.*503/);
    expect(text).toContain('## Response body');
    expect(text).toContain('Asking the policy service…');
    expect(text).not.toContain('Exit code');
  });

  it('warnings get their own section; suppressed stdout says so', () => {
    const text = renderHookRun(
      record({
        status: 'ok',
        warnings: ['unknown field "contineu" in the hook\'s JSON output; it is ignored — did you mean "continue"?'],
        raw: { stdout: '', stderr: '', exitCode: 0, stdoutSuppressed: true },
      }),
    );
    expect(text).toContain('## Warnings');
    expect(text).toContain('- unknown field "contineu"');
    expect(text).toContain('(hidden: the hook asked suppressOutput)');
  });
});
