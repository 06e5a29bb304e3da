import path from 'node:path';
import { expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { textReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// A Claude Code project's custom slash commands and memory, headless: `-p "/review 42"` sends the
// command's prompt (its !`command` run first through the Bash tool's hooks and rules), the
// UserPromptExpansion and InstructionsLoaded hooks see what Claude Code gives them.

const suite = useCliSuite();
const record = (file: string) => ({ type: 'command', command: `cat >> "$CLAUDE_PROJECT_DIR/${file}"; echo >> "$CLAUDE_PROJECT_DIR/${file}"` });
const run = (url: string, prompt: string) =>
  runCliProcess(suite.cli, suite.w, ['-p', prompt, '--model', 'test-model', '--base-url', url, '--output-format', 'json']);
const lastUserMessage = (body: { readonly messages?: readonly Record<string, unknown>[] }): string =>
  String([...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '');

it('/review 42 sends the expanded command: $ARGUMENTS filled, !`command` output inlined, @file attached; hooks see the expansion and the memory files', async () => {
  const { w } = suite;
  await w.write('.claude/commands/review.md', '---\ndescription: Review a PR\n---\nReview PR $ARGUMENTS.\nBranch: !`echo feature-x`\nStyle: @docs/style.md');
  await w.write('docs/style.md', 'Tabs, not spaces.');
  await w.write('CLAUDE.md', 'Be terse.');
  await w.settings({
    permissions: { allow: ['Bash(echo:*)'] },
    hooks: {
      UserPromptExpansion: [{ matcher: 'review', hooks: [record('expansion.log')] }],
      InstructionsLoaded: [{ hooks: [record('instructions.log')] }],
      PreToolUse: [{ matcher: 'Bash', hooks: [record('pretool.log')] }],
    },
  });
  const s = await suite.serve([textReply('looks good')]);
  const out = await run(s.url, '/review 42');
  expect(out.code).toBe(0);
  const sent = lastUserMessage(s.requests[0]?.body ?? {});
  expect(sent).toBe(`Review PR 42.\nBranch: feature-x\nStyle: @docs/style.md\n\nContents of ${path.join(w.ws, 'docs/style.md')}:\n\nTabs, not spaces.`);
  expect(w.jsonLines('pretool.log')).toEqual([expect.objectContaining({ tool_name: 'Bash', tool_input: { command: 'echo feature-x' } })]);
  expect(w.jsonLines('expansion.log')).toEqual([
    expect.objectContaining({
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'review',
      command_args: '42',
      prompt: sent,
    }),
  ]);
  expect(w.jsonLines('instructions.log')).toEqual([
    expect.objectContaining({
      hook_event_name: 'InstructionsLoaded',
      file_path: path.join(w.ws, 'CLAUDE.md'),
      memory_type: 'Project',
      load_reason: 'session_start',
    }),
  ]);
});

it('a PreToolUse hook that denies the !command refuses the whole command: nothing reaches the model', async () => {
  const { w } = suite;
  await w.write('.claude/commands/deploy.md', 'Deploy now: !`echo rm -rf build`');
  await w.settings({
    permissions: { allow: ['Bash'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat >/dev/null; echo "no shell in commands" >&2; exit 2' }] }] },
  });
  const s = await suite.serve([textReply('should not be asked')]);
  const out = await run(s.url, '/deploy');
  expect(s.requests).toHaveLength(0);
  expect(JSON.parse(out.stdout)).toMatchObject({ status: 'blocked', is_error: true });
  expect(out.stdout).toContain('no shell in commands');
});

it('a UserPromptExpansion hook can block the command; an unknown /name goes to the model as typed', async () => {
  const { w } = suite;
  await w.write('.claude/commands/ship.md', 'Ship it.');
  await w.settings({
    hooks: { UserPromptExpansion: [{ matcher: 'ship', hooks: [{ type: 'command', command: 'cat >/dev/null; echo "not on Fridays" >&2; exit 2' }] }] },
  });
  const s = await suite.serve([textReply('ok'), textReply('ok')]);
  const blocked = await run(s.url, '/ship');
  expect(JSON.parse(blocked.stdout)).toMatchObject({ status: 'blocked' });
  expect(blocked.stdout).toContain('not on Fridays');
  await run(s.url, '/unknown thing');
  expect(lastUserMessage(s.requests[0]?.body ?? {})).toBe('/unknown thing');
});
