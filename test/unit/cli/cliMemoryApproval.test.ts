import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply } from '../../support/openAiTestServer';
import { HOOKS_DIR } from '../../support/cliHarness';
import { useCliSuite } from './cliSuite';

// At a real terminal (python3's pty) a memory import or a slash command's @file outside the
// project is a question, as Claude Code asks before an external import: "y" lets exactly that
// file in, "n" keeps it out (the model gets a note, never the content). One question per file.

const suite = useCliSuite();
const DRIVER = path.join(HOOKS_DIR, '..', 'ptyDriver.py');
const SECRET = 'OUTSIDE-9c1e-content';

interface PtyRun {
  readonly code: number;
  readonly stdout: string;
  readonly tty: string;
  readonly unmet: readonly string[];
}

function runInPty(s: OpenAiTestServer, prompt: string, steps: readonly { expect: string; send: string }[]): Promise<PtyRun> {
  const w = suite.w;
  const spec = {
    argv: [process.execPath, suite.cli, '-p', prompt, '--model', 'test-model', '--base-url', s.url, '--max-steps', '3', '--output-format', 'json'],
    cwd: w.ws,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: w.home, HOOKWISE_HOME: w.hookwiseHome, OPENAI_API_KEY: 'test-key', TERM: 'dumb' },
    steps,
    stdin: 'tty',
    stderr: 'tty',
    terminal: true,
    timeout: 15,
  };
  return new Promise((resolve, reject) => {
    execFile('python3', [DRIVER, JSON.stringify(spec)], { timeout: 20_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`pty driver failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as PtyRun);
    });
  });
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
