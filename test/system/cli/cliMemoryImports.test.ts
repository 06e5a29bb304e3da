import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// A repository controls its CLAUDE.md, CLAUDE.local.md, .claude/ and every file they import.
// Headless (no one to ask), project memory reads only inside the project and past Read deny
// rules: an import or a link out is left out, the model gets a note naming it (never the
// content), and stderr names the memory file and the import. The user's own ~/.claude memory
// still imports from home.

const suite = useCliSuite();
const SECRET = 'SECRET-7f3a-must-never-reach-the-model';

/** Writes `SECRET` into a file outside the project (under the test's base folder) and returns its path. */
async function outsideFile(rel = 'outside/secret.md', content = SECRET): Promise<string> {
  const file = path.join(suite.w.base, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

/** A symlink at `rel` in the project pointing at `target`. */
async function linkInProject(rel: string, target: string): Promise<void> {
  const at = path.join(suite.w.ws, rel);
  await mkdir(path.dirname(at), { recursive: true });
  await symlink(target, at);
}

/** Everything every request to the model carried. */
function sent(s: OpenAiTestServer): string {
  return JSON.stringify(s.requests.map((r) => r.body));
}

function systemPrompt(s: OpenAiTestServer): string {
  return String(s.requests[0]?.body.messages?.[0]?.content ?? '');
}

it('@~/.ssh/id_rsa in the project CLAUDE.md is not imported; the user’s ~/.claude/CLAUDE.md still imports from home', async () => {
  const { w } = suite;
  await outsideFile('home/.ssh/id_rsa', `-----BEGIN KEY-----\n${SECRET}\n`);
  await outsideFile('home/notes/mine.md', 'USER NOTE: prefer tabs.');
  await w.write('../home/.claude/CLAUDE.md', 'User rules. @~/notes/mine.md');
  await w.write('CLAUDE.md', 'Project rules. See @~/.ssh/id_rsa');
  const s = await suite.serve([textReply('ok')]);
  const run = await suite.runPrompt(s, 'hi', 2);
  expect(run.code).toBe(0);
  expect(sent(s)).not.toContain(SECRET);
  expect(systemPrompt(s)).toContain('Project rules.');
  expect(systemPrompt(s)).toContain('USER NOTE: prefer tabs.');
  expect(systemPrompt(s)).toContain(`@~/.ssh/id_rsa in ${path.join(w.ws, 'CLAUDE.md')} was not imported`);
  expect(run.stderr).toContain(`${path.join(w.ws, 'CLAUDE.md')}: import @~/.ssh/id_rsa`);
  expect(run.stderr).toContain(`outside the project ${w.ws}; not loaded`);
});

it('@/absolute and @../ imports out of the project are not imported; an import inside the project still is', async () => {
  const { w } = suite;
  const abs = await outsideFile('outside/abs.md', `${SECRET}-abs`);
  await outsideFile('outside/rel.md', `${SECRET}-rel`);
  await w.write('docs/ok.md', 'IN-PROJECT IMPORT.');
  await w.write('CLAUDE.md', `Rules.\n@${abs}\n@../outside/rel.md\n@docs/ok.md`);
  const s = await suite.serve([textReply('ok')]);
  const run = await suite.runPrompt(s, 'hi', 2);
  expect(run.code).toBe(0);
  expect(sent(s)).not.toContain(SECRET);
  expect(systemPrompt(s)).toContain('IN-PROJECT IMPORT.');
  expect(systemPrompt(s)).toContain(`@${abs} in ${path.join(w.ws, 'CLAUDE.md')} was not imported`);
  expect(systemPrompt(s)).toContain(`@../outside/rel.md in ${path.join(w.ws, 'CLAUDE.md')} was not imported`);
  expect(run.stderr).toContain(`import @../outside/rel.md (${path.join(w.base, 'outside', 'rel.md')})`);
});

it('CLAUDE.local.md, .claude/CLAUDE.md and .claude/rules/x.md symlinked out of the project are not loaded', async () => {
  const { w } = suite;
  await linkInProject('CLAUDE.local.md', await outsideFile('outside/local.md', `${SECRET}-local`));
  await linkInProject('.claude/CLAUDE.md', await outsideFile('outside/dot.md', `${SECRET}-dot`));
  await linkInProject('.claude/rules/x.md', await outsideFile('outside/rule.md', `${SECRET}-rule`));
  await w.write('.claude/rules/fine.md', 'RULE IN PROJECT.');
  const s = await suite.serve([textReply('ok')]);
  const run = await suite.runPrompt(s, 'hi', 2);
  expect(run.code).toBe(0);
  expect(sent(s)).not.toContain(SECRET);
  expect(systemPrompt(s)).toContain('RULE IN PROJECT.');
  for (const rel of ['CLAUDE.local.md', '.claude/CLAUDE.md', '.claude/rules/x.md']) {
    expect(systemPrompt(s)).toContain(`${path.join(w.ws, rel)} was not loaded`);
    expect(run.stderr).toContain(`hookwise: Memory: ${path.join(w.ws, rel)} (`);
  }
});

it('nested memory: a nested CLAUDE.md linked out and the import of an in-project nested CLAUDE.md are left out alike', async () => {
  const { w } = suite;
  await outsideFile('outside/nested-import.md', `${SECRET}-import`);
  await w.write('packages/api/CLAUDE.md', 'API RULES. @../../../outside/nested-import.md');
  await w.write('packages/api/server.ts', 'export {};');
  await linkInProject('packages/web/CLAUDE.md', await outsideFile('outside/nested-link.md', `${SECRET}-link`));
  await w.write('packages/web/app.ts', 'export {};');
  const s = await suite.serve([
    toolCallsReply([{ name: 'Read', arguments: { file_path: 'packages/api/server.ts' } }]),
    toolCallsReply([{ name: 'Read', arguments: { file_path: 'packages/web/app.ts' } }]),
    textReply('done'),
  ]);
  const run = await suite.runPrompt(s, 'look', 5);
  expect(run.code).toBe(0);
  expect(s.requests).toHaveLength(3);
  expect(sent(s)).not.toContain(SECRET);
  expect(sent(s)).toContain('API RULES.');
  expect(sent(s)).toContain(`@../../../outside/nested-import.md in ${path.join(w.ws, 'packages/api/CLAUDE.md')} was not imported`);
  expect(run.stderr).toContain(`${path.join(w.ws, 'packages/api/CLAUDE.md')}: import @../../../outside/nested-import.md`);
  expect(run.stderr).toContain(`${path.join(w.ws, 'packages/web/CLAUDE.md')} (${path.join(w.base, 'outside', 'nested-link.md')}) is outside the project`);
});

it('a Read deny rule hides an in-project import, at the start and in nested memory', async () => {
  const { w } = suite;
  await w.write('private/key.md', `${SECRET}-denied`);
  await w.write('CLAUDE.md', 'Rules. @private/key.md');
  await w.write('pkg/CLAUDE.md', 'PKG RULES. @../private/key.md');
  await w.write('pkg/a.ts', 'export {};');
  await w.settings({ permissions: { deny: ['Read(./private/**)'] } });
  const s = await suite.serve([toolCallsReply([{ name: 'Read', arguments: { file_path: 'pkg/a.ts' } }]), textReply('done')]);
  const run = await suite.runPrompt(s, 'hi', 4);
  expect(run.code).toBe(0);
  expect(sent(s)).not.toContain(SECRET);
  expect(sent(s)).toContain('PKG RULES.');
  expect(systemPrompt(s)).toContain(`@private/key.md in ${path.join(w.ws, 'CLAUDE.md')} was not imported: permission rule Read(./private/**) hides it`);
  expect(run.stderr).toContain(`${path.join(w.ws, 'CLAUDE.md')}: import @private/key.md`);
  expect(run.stderr).toContain('is hidden by permission rule Read(./private/**); not loaded');
});

it("a slash command's @file outside the workspace (by path or through a symlink) is refused headless; nothing is sent", async () => {
  const { w } = suite;
  await outsideFile('outside/cmd.md', `${SECRET}-cmd`);
  await linkInProject('docs/link.md', path.join(w.base, 'outside', 'cmd.md'));
  await w.write('.claude/commands/leak.md', 'Summarise @../outside/cmd.md please.');
  await w.write('.claude/commands/leaklink.md', 'Summarise @docs/link.md please.');
  const s = await suite.serve([textReply('summary'), textReply('summary')]);
  for (const command of ['/leak', '/leaklink']) {
    const run = await suite.runPrompt(s, command, 2);
    expect(sent(s)).not.toContain(SECRET);
    expect(`${run.stdout}${run.stderr}`).toContain('is outside the workspace');
  }
  expect(s.requests).toHaveLength(0);
});

it('--allow-memory-import FILE lets exactly that outside file be imported headless; another outside import stays out', async () => {
  const { w } = suite;
  await outsideFile('outside/team.md', 'TEAM CONVENTIONS.');
  await outsideFile('outside/secret.md');
  await w.write('CLAUDE.md', 'Rules. @../outside/team.md @../outside/secret.md');
  const s = await suite.serve([textReply('ok')]);
  const run = await suite.runPrompt(s, 'hi', 2, '--allow-memory-import', '../outside/team.md');
  expect(run.code).toBe(0);
  expect(systemPrompt(s)).toContain('TEAM CONVENTIONS.');
  expect(sent(s)).not.toContain(SECRET);
  expect(run.stderr).toContain(`${path.join(w.ws, 'CLAUDE.md')}: import @../outside/secret.md`);
});
