import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkedPathError, readFileNoFollow, writeFileNoFollow } from '../../../src/shared/noFollowFile';

// Issue 25 §13: "Always Allow" followed a repository symlink (.claude/settings.local.json →
// ~/.claude/settings.json) and wrote the rule into the user's global file. Real files and links.

let base = '';
let ws = '';
let global = '';
beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'hookwise-nofollow-')));
  ws = path.join(base, 'ws');
  global = path.join(base, 'home', '.claude', 'settings.json');
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(path.dirname(global), { recursive: true });
  await fs.writeFile(global, '{"permissions":{"deny":["Bash(rm:*)"]}}');
});
afterEach(() => fs.rm(base, { recursive: true, force: true }));

const local = (): string => path.join(ws, '.claude', 'settings.local.json');

describe('writeFileNoFollow', () => {
  it('a settings.local.json that is a symlink to the global file is refused; the global file is unchanged', async () => {
    await fs.mkdir(path.join(ws, '.claude'));
    await fs.symlink(global, local());
    const error = await writeFileNoFollow(ws, local(), '{"permissions":{"allow":["Bash"]}}').catch((e: unknown) => e);
    expect(LinkedPathError.is(error) && error.reason).toBe('symlink');
    expect(String(error)).toContain(`${local()} is a symbolic link (to ${global})`);
    expect(await fs.readFile(global, 'utf8')).toBe('{"permissions":{"deny":["Bash(rm:*)"]}}');
    await expect(readFileNoFollow(local())).rejects.toThrow(/symbolic link/);
  });

  it('a .claude folder that is a symlink to ~/.claude is refused; nothing is created there', async () => {
    await fs.symlink(path.dirname(global), path.join(ws, '.claude'));
    await expect(writeFileNoFollow(ws, local(), '{}')).rejects.toThrow(`${path.join(ws, '.claude')} is a symbolic link`);
    expect(await fs.readdir(path.dirname(global))).toEqual(['settings.json']);
  });

  it('a hard link to the global file is refused', async () => {
    await fs.mkdir(path.join(ws, '.claude'));
    await fs.link(global, local());
    await expect(writeFileNoFollow(ws, local(), '{}')).rejects.toThrow(/hard link/);
    expect(await fs.readFile(global, 'utf8')).toContain('deny');
  });

  it('a plain file, or none yet, is written', async () => {
    await writeFileNoFollow(ws, local(), '{"a":1}');
    expect(await readFileNoFollow(local())).toBe('{"a":1}');
    await writeFileNoFollow(ws, local(), '{}');
    expect(await fs.readFile(local(), 'utf8')).toBe('{}');
    expect(await readFileNoFollow(path.join(ws, 'missing.json'))).toBe('');
  });
});
