import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expandCommand, splitArgs, type ExpansionPorts } from '../../../../src/agent/commands/expandCommand';
import { loadSlashCommands, parseSlashInvocation } from '../../../../src/agent/commands/slashCommands';
import { splitRuleList } from '../../../../src/permissions/ruleList';

// Claude Code's custom slash commands: where they are read from and how a command becomes a prompt.

let base = '';
const put = async (rel: string, text: string): Promise<void> => {
  await mkdir(path.dirname(path.join(base, rel)), { recursive: true });
  await writeFile(path.join(base, rel), text);
};
beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-commands-')));
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('loadSlashCommands', () => {
  it('reads user and project commands (project wins a clash), namespaces from subfolders, and the frontmatter', async () => {
    await put('home/.claude/commands/review.md', 'User review');
    await put('home/.claude/commands/mine.md', 'Mine');
    await put(
      'ws/.claude/commands/review.md',
      '---\ndescription: Review the diff\nargument-hint: [pr]\nallowed-tools: Bash(git diff:*), Bash(git log:*)\nmodel: small\n---\nReview $ARGUMENTS',
    );
    await put('ws/.claude/commands/frontend/button.md', 'Make a button called $1 in $2');
    await put('ws/.claude/commands/bad name.md', 'x');
    await put('ws/.claude/commands/loose.md', '---\nargument-hint: [pr-number] [priority]\ndescription: Loose YAML\n---\nGo');
    const set = await loadSlashCommands({ projectDir: path.join(base, 'ws'), homeDir: path.join(base, 'home') });
    expect(set.commands.map((c) => [c.name, c.scope, c.description])).toEqual([
      ['button', 'project', 'Make a button called $1 in $2 (project:frontend)'],
      ['loose', 'project', 'Loose YAML (project)'],
      ['mine', 'user', 'Mine (user)'],
      ['review', 'project', 'Review the diff (project)'],
    ]);
    expect(set.commands[1]?.argumentHint).toBe('[pr-number] [priority]');
    expect(set.commands[3]).toMatchObject({
      argumentHint: '[pr]',
      allowedTools: ['Bash(git diff:*)', 'Bash(git log:*)'],
      model: 'small',
      body: 'Review $ARGUMENTS',
    });
    expect(set.problems).toEqual([expect.stringContaining('"bad name" cannot be a command name')]);
  });

  it('parses invocations and rule lists', () => {
    expect(parseSlashInvocation('/review  123 now')).toEqual({ name: 'review', args: '123 now' });
    expect(parseSlashInvocation('/compact')).toEqual({ name: 'compact', args: '' });
    expect(parseSlashInvocation('please /review')).toBeUndefined();
    expect(splitRuleList('Bash(git add:*), Bash(echo a,b) Read')).toEqual(['Bash(git add:*)', 'Bash(echo a,b)', 'Read']);
    expect(splitArgs(`one "two words" 'three'`)).toEqual(['one', 'two words', 'three']);
  });
});

describe('expandCommand', () => {
  const ports = (over: Partial<ExpansionPorts> = {}): ExpansionPorts => ({
    cwd: base,
    runShell: async (c) => ({ ok: true, output: `<out of ${c}>\n` }),
    readFile: async (p) => ({ ok: true, text: `<text of ${path.basename(p)}>` }),
    ...over,
  });
  const cmd = (body: string) => ({ name: 'x', scope: 'project' as const, namespace: '', file: 'x.md', description: '', allowedTools: [], body });

  it('fills $ARGUMENTS and $1…$9, runs !`commands` first and attaches @files', async () => {
    const out = await expandCommand(cmd('Fix issue $1 ($ARGUMENTS).\nStatus: !`git status`\nSee @src/a.ts'), '42 "high prio"', ports());
    expect(out).toEqual({
      ok: true,
      prompt: `Fix issue 42 (42 "high prio").\nStatus: <out of git status>\nSee @src/a.ts\n\nContents of ${path.join(base, 'src/a.ts')}:\n\n<text of a.ts>`,
    });
  });

  it('without placeholders the arguments are appended; a denied !command or unreadable @file stops the expansion with the reason', async () => {
    expect(await expandCommand(cmd('Summarise.'), 'briefly', ports())).toEqual({ ok: true, prompt: 'Summarise.\n\nARGUMENTS: briefly' });
    const denied = await expandCommand(cmd('!`rm -rf /`'), '', ports({ runShell: async () => ({ ok: false, error: 'denied by permission rule Bash(rm:*)' }) }));
    expect(denied).toEqual({ ok: false, error: '/x: !`rm -rf /` did not run: denied by permission rule Bash(rm:*)' });
    const unreadable = await expandCommand(cmd('Read @.env.local'), '', ports({ readFile: async () => ({ ok: false, error: 'denied by Read(.env*)' }) }));
    expect(unreadable).toEqual({ ok: false, error: '/x: @.env.local cannot be included: denied by Read(.env*)' });
  });
});
