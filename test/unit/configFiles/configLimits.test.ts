import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAgentFileText } from '../../../src/hooks/config/agentFileReader';
import { readClaudeSettingsText } from '../../../src/hooks/config/claudeSettingsReader';
import { readBoundedTextFile } from '../../../src/configFiles/configFileSystem';
import { ConfigFileTooLargeError, findExcessNesting, MAX_CONFIG_FILE_BYTES } from '../../../src/configFiles/configLimits';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import { isProjectSource } from '../../../src/configFiles/hookSource';
import { memoryFs } from '../hooks/config/configTestKit';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('findExcessNesting', () => {
  it('finds the first bracket past the limit and ignores brackets in strings and comments', () => {
    expect(findExcessNesting('[[[1]]]', 3)).toBeUndefined();
    expect(findExcessNesting('[[[[1]]]]', 3)).toBe(3);
    expect(findExcessNesting('["[[[[", {"a": "\\"[[[["}] // [[[[\n/* [[[[ */', 2)).toBeUndefined();
  });
});

describe('parsing with limits (docs/security.md)', () => {
  it('JSON nested 100000 deep is one tooDeep error with its line, not a RangeError', () => {
    const text = `{\n  "hooks": ${'['.repeat(100_000)}`;
    const content = readClaudeSettingsText(text, { displayFile: '.claude/settings.json' });
    expect(content.diagnostics).toEqual([expect.objectContaining({ code: 'tooDeep', severity: 'error', line: 2 })]);
  });

  it('a YAML alias bomb in agent frontmatter is one diagnostic naming the file', () => {
    const bomb = `---\nname: b\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n`;
    const content = readAgentFileText(bomb, { file: '/ws/.claude/agents/b.md', displayFile: '.claude/agents/b.md' });
    expect(content.diagnostics).toEqual([
      expect.objectContaining({ displayFile: '.claude/agents/b.md', code: 'agentFrontmatter', message: expect.stringMatching(/alias/) }),
    ]);
  });

  it('an injected file system returning a huge text gives tooLarge, the others load', async () => {
    const fs = memoryFs({
      '/ws/.claude/settings.json': ' '.repeat(MAX_CONFIG_FILE_BYTES + 1),
      '/home/.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'mine' }] }] } }),
    });
    const config = await loadHookConfig(
      [
        { kind: 'claudeSettingsFile', scope: 'project', file: '/ws/.claude/settings.json', displayFile: '.claude/settings.json' },
        { kind: 'claudeSettingsFile', scope: 'user', file: '/home/.claude/settings.json', displayFile: '~/.claude/settings.json' },
      ],
      { fs },
    );
    expect(config.diagnostics).toEqual([expect.objectContaining({ displayFile: '.claude/settings.json', code: 'tooLarge' })]);
    expect(config.hooks).toHaveLength(1);
  });

  it('the node reader refuses FIFOs (without blocking), directories and files over the limit', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hw-limits-'));
    dirs.push(dir);
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    await expect(readBoundedTextFile(path.join(dir, 'fifo'))).rejects.toThrow(/not a regular file/);
    await expect(readBoundedTextFile(dir)).rejects.toThrow(/directory/);
    writeFileSync(path.join(dir, 'big'), 'x'.repeat(101));
    await expect(readBoundedTextFile(path.join(dir, 'big'), 100)).rejects.toBeInstanceOf(ConfigFileTooLargeError);
    expect(await readBoundedTextFile(path.join(dir, 'big'), 101)).toHaveLength(101);
    expect(await readBoundedTextFile(path.join(dir, 'missing'))).toBeUndefined();
  });
});

describe('hook scope is decided by where the file was found (docs/security.md)', () => {
  it('agent files in a multi-root folder named "~evil" are project sources; ~/.claude/agents are not', async () => {
    const agent = (command: string) => `---\nname: a\nhooks:\n  Stop: [{hooks: [{type: command, command: ${command}}]}]\n---\n`;
    const fs = memoryFs({ '/home/.claude/agents/u.md': agent('user'), '/ws/~evil/.claude/agents/p.md': agent('project') });
    const config = await loadHookConfig(
      [
        { kind: 'agentsDirectory', scope: 'user', dir: '/home/.claude/agents', displayDir: '~/.claude/agents' },
        { kind: 'agentsDirectory', scope: 'project', dir: '/ws/~evil/.claude/agents', displayDir: '~evil/.claude/agents', folder: '/ws/~evil' },
      ],
      { fs },
    );
    const scopes = config.hooks.map((h) => [
      h.handler.type === 'command' ? h.handler.command : '',
      h.source.kind === 'file' ? h.source.scope : '',
      isProjectSource(h.source),
    ]);
    expect(scopes).toEqual([
      ['user', 'userAgent', false],
      ['project', 'projectAgent', true],
    ]);
  });
});
