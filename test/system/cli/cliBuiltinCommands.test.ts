import path from 'node:path';
import { expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { textReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// Built-in slash commands headless: `-p "/hooks"` answers from Hookwise itself, before any
// custom command of the same name, and never calls the model.

const suite = useCliSuite();
const run = (url: string, prompt: string, format = 'text') =>
  runCliProcess(suite.cli, suite.w, ['-p', prompt, '--model', 'test-model', '--base-url', url, '--output-format', format]);

it('/hooks lists the hooks in effect with their sources, a skill hook marked as waiting for its skill; a custom hooks.md does not shadow it', async () => {
  const { w } = suite;
  await w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './guard.sh' }] }] } });
  await w.write(
    '.claude/skills/deploy/SKILL.md',
    '---\ndescription: Deploys\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ./notify.sh\n---\nDeploy.',
  );
  await w.write('.claude/commands/hooks.md', 'Tell me about hooks.');
  const s = await suite.serve([textReply('should not be asked')]);
  const out = await run(s.url, '/hooks');
  expect(out.code).toBe(0);
  expect(s.requests).toHaveLength(0);
  expect(out.stdout).toContain('PreToolUse:\n  ./guard.sh [Bash] — .claude/settings.json › hooks.PreToolUse[0].hooks[0]');
  expect(out.stdout).toContain('./notify.sh (skill deploy, once it is loaded) — skill deploy › SKILL.md › hooks.Stop[0].hooks[0]');
});

it('/memory names the memory files in use; /model the model; an unknown /name still goes to the model', async () => {
  const { w } = suite;
  await w.write('CLAUDE.md', 'Be terse.');
  const s = await suite.serve([textReply('answered')]);
  const memory = await run(s.url, '/memory', 'json');
  expect(JSON.parse(memory.stdout)).toMatchObject({
    is_error: false,
    command: 'memory',
    result: expect.stringContaining(`${path.join(w.ws, 'CLAUDE.md')} (Project)`),
  });
  const model = await run(s.url, '/model');
  expect(model.stdout).toMatch(/^Model: .*test-model/);
  expect(s.requests).toHaveLength(0);
  const other = await run(s.url, '/nosuch thing');
  expect(other.stdout).toContain('answered');
  expect(s.requests).toHaveLength(1);
});

it('/resume without an id lists past sessions; with a bad id it fails with exit 1', async () => {
  const s = await suite.serve([textReply('first answer')]);
  const first = await run(s.url, 'hello there', 'json');
  const id = (JSON.parse(first.stdout) as { session_id: string }).session_id;
  const list = await run(s.url, '/resume');
  expect(list.stdout).toContain(id);
  expect(list.stdout).toContain('hello there');
  const bad = await run(s.url, '/resume no-such-session');
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('Cannot resume: no session no-such-session');
});
