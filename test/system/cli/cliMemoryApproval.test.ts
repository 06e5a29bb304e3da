import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply } from '../../support/openAiTestServer';
import type { PtyRun } from './ptyCli';
import { runCliInPty } from './ptyCli';
import { useCliSuite } from '../../support/cliSuite';

// At a real terminal (python3's pty) a memory import or a slash command's @file outside the
// project is a question, as Claude Code asks before an external import: "y" lets exactly that
// file in, "n" keeps it out (the model gets a note, never the content). One question per file.

const suite = useCliSuite();
const SECRET = 'OUTSIDE-9c1e-content';

function runInPty(s: OpenAiTestServer, prompt: string, steps: readonly { expect: string; send: string }[]): Promise<PtyRun> {
  const args = ['-p', prompt, '--model', 'test-model', '--base-url', s.url, '--max-steps', '3', '--output-format', 'json'];
  return runCliInPty(suite.cli, suite.w, args, { steps });
}

async function outsideFile(): Promise<string> {
  const file = path.join(suite.w.base, 'shared', 'team.md');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, SECRET);
  return file;
}

const sent = (s: OpenAiTestServer): string => JSON.stringify(s.requests.map((r) => r.body));
const QUESTION = 'outside the project';

it('"y" at the question imports the outside file; two imports of it ask once', async () => {
  const file = await outsideFile();
  await suite.w.write('CLAUDE.md', 'Rules. @../shared/team.md');
  await suite.w.write('.claude/CLAUDE.md', `More rules. @${file}`);
  const s = await suite.serve([textReply('ok')]);
  const out = await runInPty(s, 'hi', [{ expect: 'Answer [y/n]: ', send: 'y\r' }]);
  expect(out.unmet).toEqual([]);
  expect(out.code).toBe(0);
  expect(out.tty).toContain(`${path.join(suite.w.ws, 'CLAUDE.md')} imports @../shared/team.md`);
  expect(out.tty.split(QUESTION).length - 1).toBe(1);
  expect(sent(s)).toContain(SECRET);
});

it('"n" keeps it out: the model gets a note naming the import, never the content', async () => {
  await outsideFile();
  await suite.w.write('CLAUDE.md', 'Rules. @../shared/team.md');
  const s = await suite.serve([textReply('ok')]);
  const out = await runInPty(s, 'hi', [{ expect: 'Answer [y/n]: ', send: 'n\r' }]);
  expect(out.unmet).toEqual([]);
  expect(out.code).toBe(0);
  expect(sent(s)).not.toContain(SECRET);
  expect(sent(s)).toContain(`@../shared/team.md in ${path.join(suite.w.ws, 'CLAUDE.md')} was not imported`);
});

it('a slash command\'s @file outside the workspace asks; "y" attaches it', async () => {
  await outsideFile();
  await suite.w.write('.claude/commands/team.md', 'Apply @../shared/team.md here.');
  const yes = await suite.serve([textReply('ok')]);
  const allowed = await runInPty(yes, '/team', [{ expect: 'Answer [y/n]: ', send: 'y\r' }]);
  expect(allowed.unmet).toEqual([]);
  expect(allowed.tty).toContain(`/team attaches ${path.join(suite.w.base, 'shared', 'team.md')}, outside the workspace`);
  expect(sent(yes)).toContain(SECRET);
});

it('a slash command\'s @file outside the workspace: "n" refuses the command and nothing is sent', async () => {
  await outsideFile();
  await suite.w.write('.claude/commands/team.md', 'Apply @../shared/team.md here.');
  const s = await suite.serve([textReply('ok')]);
  const out = await runInPty(s, '/team', [{ expect: 'Answer [y/n]: ', send: 'n\r' }]);
  expect(out.unmet).toEqual([]);
  expect(s.requests).toHaveLength(0);
  expect(out.stdout).toContain('not approved');
});
