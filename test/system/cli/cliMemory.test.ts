import path from 'node:path';
import { expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// A project's CLAUDE.md (and what it imports) reaches the model as Claude Code sends it: in the
// system prompt, after an <env> block naming the working directory — headless, unchanged.

const suite = useCliSuite();

it("the project's CLAUDE.md, its @import and the user's ~/.claude/CLAUDE.md are in the system prompt, with the env block", async () => {
  const { w } = suite;
  await w.write('CLAUDE.md', '# Conventions\nAlways run `npm test`. More in @docs/testing.md');
  await w.write('docs/testing.md', 'Tests live in test/.');
  await w.write(path.join('..', 'home', '.claude', 'CLAUDE.md'), 'Answer in English.');
  const s = await suite.serve([textReply('ok')]);
  const run = await runCliProcess(suite.cli, w, ['-p', 'hi', '--model', 'test-model', '--base-url', s.url]);
  expect(run.code).toBe(0);
  const system = (s.requests[0]?.body.messages?.[0] ?? {}) as { role?: string; content?: string };
  expect(system.role).toBe('system');
  expect(system.content).toContain(`<env>\nWorking directory: ${w.ws}\nIs directory a git repo: No`);
  const order = ['Answer in English.', 'Always run `npm test`.', 'Tests live in test/.'].map((t) => system.content?.indexOf(t) ?? -1);
  expect(order.every((i) => i > 0)).toBe(true);
  expect(order).toEqual([...order].sort((a, b) => a - b));
  expect(system.content).toContain(
    `Contents of ${path.join(w.ws, 'docs', 'testing.md')} (project instructions, checked into the codebase, imported by ${path.join(w.ws, 'CLAUDE.md')})`,
  );
});

// Below the working directory, memory loads lazily, as in Claude Code: a folder's CLAUDE.md and a
// `paths:` rule reach the model (as a system-reminder, never in the system prompt) only once the
// agent works on a file there, once per session, and InstructionsLoaded says why.
it('reading a file loads the CLAUDE.md of its folders and the paths: rules that match it, once, as a reminder; InstructionsLoaded fires for each', async () => {
  const { w } = suite;
  await w.write('CLAUDE.md', 'Root rules.');
  await w.write('packages/api/CLAUDE.md', 'API: never log tokens.');
  await w.write('packages/api/src/server.ts', 'export const port = 1;');
  await w.write('packages/api/src/client.ts', 'export const url = "";');
  await w.write('packages/web/CLAUDE.md', 'WEB ONLY: use signals.');
  await w.write('.claude/rules/typescript.md', '---\npaths:\n  - "packages/**/*.ts"\n---\nTS: no any.');
  await w.write('.claude/rules/styles.md', '---\npaths: "**/*.css"\n---\nCSS: no ids.');
  await w.settings({
    hooks: {
      InstructionsLoaded: [
        { hooks: [{ type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR/instructions.log"; echo >> "$CLAUDE_PROJECT_DIR/instructions.log"' }] },
      ],
    },
  });
  const s = await suite.serve([
    toolCallsReply([{ name: 'Read', arguments: { file_path: 'packages/api/src/server.ts' } }]),
    toolCallsReply([{ name: 'Read', arguments: { file_path: 'packages/api/src/client.ts' } }]),
    textReply('done'),
  ]);
  const run = await suite.runPrompt(s, 'look at the api', 5);
  expect(run.code).toBe(0);
  const text = (i: number): string => JSON.stringify(s.requests[i]?.body.messages ?? []);
  const system = String(s.requests[0]?.body.messages?.[0]?.content ?? '');
  expect(system).toContain('Root rules.');
  expect(system).not.toContain('API: never log tokens.');
  expect(system).not.toContain('TS: no any.');
  expect(text(0)).not.toContain('API: never log tokens.');
  // After the first Read: a user-role system-reminder with the folder's CLAUDE.md and the matching rule; never the other folder's.
  const reminder = (s.requests[1]?.body.messages ?? []).find((m) => m.role === 'user' && String(m.content).includes('API: never log tokens.'));
  expect(String(reminder?.content)).toMatch(/^<system-reminder>\n/);
  expect(String(reminder?.content)).toContain(`Contents of ${path.join(w.ws, 'packages/api/CLAUDE.md')}`);
  expect(String(reminder?.content)).toContain('TS: no any.');
  expect(text(1)).not.toContain('WEB ONLY');
  expect(text(1)).not.toContain('CSS: no ids.');
  // The second Read in the same folder loads nothing again.
  expect(text(2).split('API: never log tokens.')).toHaveLength(2);
  expect(text(2).split('TS: no any.')).toHaveLength(2);
  const loaded = w.jsonLines('instructions.log');
  expect(loaded.map((e) => [path.relative(w.ws, String(e.file_path)), e.load_reason])).toEqual([
    ['CLAUDE.md', 'session_start'],
    ['packages/api/CLAUDE.md', 'nested_traversal'],
    ['.claude/rules/typescript.md', 'path_glob_match'],
  ]);
  expect(loaded[1]).toMatchObject({ memory_type: 'Project', trigger_file_path: path.join(w.ws, 'packages/api/src/server.ts') });
  expect(loaded[2]).toMatchObject({ memory_type: 'Project', globs: ['packages/**/*.ts'], trigger_file_path: path.join(w.ws, 'packages/api/src/server.ts') });
});

// An `@file` the user attaches loads memory as a read does (Claude Code loads nested memory for an
// @-mentioned file before the model call): the file's folder CLAUDE.md and matching `paths:` rules
// reach the model before the prompt, and InstructionsLoaded says which file brought them in.
it("a slash command's @file loads the CLAUDE.md of its folders and the matching paths: rules before the first model call", async () => {
  const { w } = suite;
  await w.write('CLAUDE.md', 'Root rules.');
  await w.write('packages/api/CLAUDE.md', 'API: never log tokens.');
  await w.write('packages/api/src/server.ts', 'export const port = 1;');
  await w.write('packages/web/CLAUDE.md', 'WEB ONLY: use signals.');
  await w.write('.claude/rules/typescript.md', '---\npaths:\n  - "packages/**/*.ts"\n---\nTS: no any.');
  await w.write('.claude/commands/review.md', 'Review @packages/api/src/server.ts for leaks.');
  await w.write('docs/CLAUDE.md', 'DOCS ONLY.');
  await w.settings({
    hooks: {
      InstructionsLoaded: [
        { hooks: [{ type: 'command', command: 'cat >> "$CLAUDE_PROJECT_DIR/instructions.log"; echo >> "$CLAUDE_PROJECT_DIR/instructions.log"' }] },
      ],
    },
  });
  const s = await suite.serve([textReply('reviewed')]);
  const run = await suite.runPrompt(s, '/review', 2);
  expect(run.code).toBe(0);
  const messages = s.requests[0]?.body.messages ?? [];
  const prompt = messages.findIndex((m) => m.role === 'user' && String(m.content).startsWith('Review @packages/api/src/server.ts'));
  const reminder = messages.findIndex((m) => m.role === 'user' && String(m.content).includes('API: never log tokens.'));
  expect(prompt).toBeGreaterThan(0);
  expect(reminder).toBeGreaterThan(0);
  expect(reminder).toBeLessThan(prompt);
  expect(String(messages[reminder]?.content)).toMatch(/^<system-reminder>\n/);
  expect(String(messages[reminder]?.content)).toContain(`Contents of ${path.join(w.ws, 'packages/api/CLAUDE.md')}`);
  expect(String(messages[reminder]?.content)).toContain('TS: no any.');
  const all = JSON.stringify(messages);
  expect(all).not.toContain('WEB ONLY');
  expect(all).not.toContain('DOCS ONLY');
  const trigger = path.join(w.ws, 'packages/api/src/server.ts');
  const loaded = w.jsonLines('instructions.log');
  expect(loaded.map((e) => [path.relative(w.ws, String(e.file_path)), e.load_reason, e.trigger_file_path])).toEqual([
    ['CLAUDE.md', 'session_start', undefined],
    ['packages/api/CLAUDE.md', 'nested_traversal', trigger],
    ['.claude/rules/typescript.md', 'path_glob_match', trigger],
  ]);
});
