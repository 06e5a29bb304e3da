import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

// `hookwise hooks test` on cases that name another agent's format: the case's input is Hookwise's,
// the hook receives its own agent's input through the adapter (a Cursor hook reads `command`, a
// Cline hook `preToolUse.parameters.command`), its answer is read the agent's way, and a case fails
// when no hook of its format ran.

const suite = useCliSuite();
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/formats');

/** Writes a hook test case in `.hookwise/hook-tests/`. */
function testCase(name: string, format: string, command: string, expect: Record<string, unknown>): Promise<string> {
  const input = { tool_name: 'Bash', tool_input: { command } };
  return suite.w.write(`.hookwise/hook-tests/${name}.json`, JSON.stringify({ name, event: 'PreToolUse', format, input, expect }, null, 2));
}

async function hooksTest(): Promise<{
  code: number | null;
  out: { passed: number; failed: number; results: { name: string; passed: boolean; decision?: string; problems: string[] }[] };
}> {
  const run = await runCliProcess(suite.cli, suite.w, ['hooks', 'test', '--json']);
  return { code: run.code, out: JSON.parse(run.stdout) as never };
}

describe('hookwise hooks test with other agents’ hooks', () => {
  it('Cursor: the docs block-git hook denies git and allows the rest, reading Cursor’s `command`', async () => {
    await suite.w.write(
      '.cursor/hooks.json',
      JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: path.join(FIXTURES, 'cursor/block-git.sh') }] } }),
    );
    await testCase('git-denied', 'cursor', 'git push', { decision: 'deny', reason: 'blocked by a Cursor hook' });
    await testCase('ls-allowed', 'cursor', 'ls', { decision: 'allow' });

    const { code, out } = await hooksTest();

    expect(out.results.map((r) => [r.name, r.passed, r.decision, r.problems])).toEqual([
      ['git-denied', true, 'deny', []],
      ['ls-allowed', true, 'allow', []],
    ]);
    expect(code).toBe(0);
  });

  it('Cursor: a case fails when no hook of its format ran (the Cursor matcher skips the command)', async () => {
    await suite.w.write(
      '.cursor/hooks.json',
      JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: path.join(FIXTURES, 'cursor/block-git.sh'), matcher: '^git' }] } }),
    );
    await testCase('ls-by-cursor', 'cursor', 'ls', { decision: 'none' });

    const { code, out } = await hooksTest();

    expect(out.results[0]).toMatchObject({ passed: false, problems: [expect.stringMatching(/^format: expected a Cursor hook to run, none did/)] });
    expect(code).toBe(1);
  });

  it('Cline: the hook script cancels rm (Cline’s input and answer) and adds context otherwise', async () => {
    const file = await suite.w.write('.clinerules/hooks/PreToolUse', readFileSync(path.join(FIXTURES, 'cline/PreToolUse'), 'utf8'));
    chmodSync(file, 0o755);
    await testCase('rm-cancelled', 'cline', 'rm -rf build', { decision: 'deny', reason: 'rm is blocked by the Cline hook' });
    await testCase('echo-context', 'cline', 'echo hi', { additionalContext: 'Cline hook saw execute_command' });

    const { code, out } = await hooksTest();

    expect(out.results.map((r) => [r.name, r.passed, r.problems])).toEqual([
      ['echo-context', true, []],
      ['rm-cancelled', true, []],
    ]);
    expect(code).toBe(0);
  });
});
