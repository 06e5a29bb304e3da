import path from 'node:path';
import { expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { textReply } from '../../support/openAiTestServer';
import { useCliSuite } from './cliSuite';

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
