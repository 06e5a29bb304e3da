import { expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { textReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// A prompt that never reaches the model says who dropped it. Headless, a slash command whose
// !`command` asks is denied by the permission fallback: that is not a UserPromptSubmit hook.

const suite = useCliSuite();

it('a prompt dropped because the permission fallback denied its !command names the fallback, not a UserPromptSubmit hook', async () => {
  const { w } = suite;
  await w.write('.claude/commands/mark.md', 'Mark it: !`touch made.txt`');
  const s = await suite.serve([textReply('should not be asked')]);
  for (const format of ['json', 'text'] as const) {
    const out = await runCliProcess(suite.cli, w, [
      '-p',
      '/mark',
      '--model',
      'test-model',
      '--base-url',
      s.url,
      '--output-format',
      format,
      '--permission-prompt',
      'none',
    ]);
    expect(out.code).toBe(1);
    const result = format === 'json' ? String((JSON.parse(out.stdout) as { result: unknown }).result) : out.stdout;
    expect(result).not.toContain('UserPromptSubmit');
    expect(result).toMatch(/^Prompt blocked by its slash command: \/mark: !`touch made.txt` did not run: .*no one to ask/);
  }
  expect(s.requests).toHaveLength(0);
  expect(w.exists('made.txt')).toBe(false);
});

it('a UserPromptSubmit hook that blocks is still named as the blocker', async () => {
  const { w } = suite;
  await w.settings({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'cat >/dev/null; echo "no prod today" >&2; exit 2' }] }] } });
  const s = await suite.serve([textReply('should not be asked')]);
  const out = await runCliProcess(suite.cli, w, ['-p', 'deploy', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json']);
  expect(JSON.parse(out.stdout)).toMatchObject({ status: 'blocked', result: 'Prompt blocked by a UserPromptSubmit hook: no prod today' });
});
