import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// A Claude Code project's skills, headless: the model sees each skill in the Skill tool's
// description, loads one with {"skill": name}, and from then on the skill's SKILL.md hooks run
// (real hook processes) and its allowed-tools allow without asking.

const suite = useCliSuite();
const run = (url: string, prompt: string) =>
  runCliProcess(suite.cli, suite.w, ['-p', prompt, '--model', 'test-model', '--base-url', url, '--output-format', 'json']);
type Body = { readonly messages?: readonly Record<string, unknown>[]; readonly tools?: readonly { function?: { name?: string; description?: string } }[] };
const toolResults = (body: Body | undefined): string[] => (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));

it("a skill's PreToolUse hook runs only after the Skill call, blocks the Bash call it guards, and shows under the skill", async () => {
  const { w } = suite;
  await w.write(
    '.claude/skills/deploy/SKILL.md',
    [
      '---',
      'name: deploy',
      'description: Deploys the app to staging',
      'hooks:',
      '  PreToolUse:',
      '    - matcher: Bash',
      '      hooks:',
      '        - type: command',
      '          command: \'cat >> "$CLAUDE_PROJECT_DIR/skill-hook.log"; echo >> "$CLAUDE_PROJECT_DIR/skill-hook.log"; echo "deploy skill: no shell" >&2; exit 2\'',
      '---',
      'Run ./deploy.sh staging and report.',
    ].join('\n'),
  );
  await w.settings({ permissions: { allow: ['Bash(touch:*)'] } });
  const s = await suite.serve([
    toolCallsReply([{ name: 'Bash', arguments: { command: 'touch before.txt' } }]),
    toolCallsReply([{ name: 'Skill', arguments: { skill: 'deploy' } }]),
    toolCallsReply([{ name: 'Bash', arguments: { command: 'touch after.txt' } }]),
    textReply('done'),
  ]);
  const out = await run(s.url, 'deploy please');
  expect(out.code).toBe(0);
  const skillTool = (s.requests[0]?.body as Body).tools?.find((t) => t.function?.name === 'Skill');
  expect(skillTool?.function?.description).toContain('- deploy: Deploys the app to staging');
  expect(existsSync(path.join(w.ws, 'before.txt'))).toBe(true);
  expect(existsSync(path.join(w.ws, 'after.txt'))).toBe(false);
  const afterSkill = toolResults(s.requests[2]?.body as Body);
  expect(afterSkill.at(-1)).toContain(`Base directory for this skill: ${path.join(w.ws, '.claude/skills/deploy')}`);
  expect(afterSkill.at(-1)).toContain('Run ./deploy.sh staging and report.');
  expect(toolResults(s.requests[3]?.body as Body).at(-1)).toContain('deploy skill: no shell');
  expect(w.jsonLines('skill-hook.log')).toEqual([
    expect.objectContaining({ tool_name: 'Bash', tool_input: expect.objectContaining({ command: 'touch after.txt' }) }),
  ]);
  const runs = (JSON.parse(out.stdout) as { hook_runs: { source: string }[] }).hook_runs;
  expect(runs.map((r) => r.source)).toContain('skill deploy › SKILL.md › hooks.PreToolUse[0].hooks[0]');
});

it("a skill's allowed-tools allow its commands once it is loaded; a once: true skill hook runs a single time", async () => {
  const { w } = suite;
  await w.write(
    '.claude/skills/scaffold/SKILL.md',
    [
      '---',
      'description: Creates files',
      'allowed-tools: Bash(touch:*)',
      'hooks:',
      '  PostToolUse:',
      '    - matcher: Bash',
      '      hooks:',
      '        - type: command',
      '          once: true',
      '          command: \'cat >> "$CLAUDE_PROJECT_DIR/once.log"; echo >> "$CLAUDE_PROJECT_DIR/once.log"\'',
      '---',
      'Touch the files.',
    ].join('\n'),
  );
  const s = await suite.serve([
    toolCallsReply([{ name: 'Bash', arguments: { command: 'touch a.txt' } }]),
    toolCallsReply([{ name: 'Skill', arguments: { skill: 'scaffold' } }]),
    toolCallsReply([{ name: 'Bash', arguments: { command: 'touch b.txt' } }]),
    toolCallsReply([{ name: 'Bash', arguments: { command: 'touch c.txt' } }]),
    textReply('done'),
  ]);
  const out = await run(s.url, 'scaffold');
  expect(out.code).toBe(0);
  // Headless, nobody answers the ask: before the skill the Bash call is denied, after it allowed-tools allows it.
  expect(existsSync(path.join(w.ws, 'a.txt'))).toBe(false);
  expect(existsSync(path.join(w.ws, 'b.txt'))).toBe(true);
  expect(existsSync(path.join(w.ws, 'c.txt'))).toBe(true);
  expect(w.jsonLines('once.log')).toEqual([
    expect.objectContaining({ hook_event_name: 'PostToolUse', tool_input: expect.objectContaining({ command: 'touch b.txt' }) }),
  ]);
});

it('an unknown skill is an error result naming the available ones; no Skill tool without skills', async () => {
  const { w } = suite;
  await w.write('.claude/skills/lint/SKILL.md', '---\ndescription: Lints\n---\nRun the linter.');
  const s = await suite.serve([toolCallsReply([{ name: 'Skill', arguments: { skill: 'nope' } }]), textReply('ok')]);
  await run(s.url, 'go');
  expect(toolResults(s.requests[1]?.body as Body).at(-1)).toContain('Unknown skill "nope". Available: lint.');
});
