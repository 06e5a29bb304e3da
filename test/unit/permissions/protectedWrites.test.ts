import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protectedWriteReason } from '../../../src/permissions/protectedWrites';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useRuntimeEnv } from '../agent/runtimeHarness';

// An agent must not rewrite the hooks and rules that police it without a person saying so:
// writes into .git, .claude (but commands/ and skills/), .vscode, .idea and to any script a
// configured hook runs ask even in bypassPermissions, past allow rules and a PreToolUse
// hook's allow (Claude Code ≥ 2.1.78 protects the same directories). Headless, nobody
// answers the ask, so the write is denied.

describe('protectedWriteReason', () => {
  const none = new Set<string>();
  it.each([
    ['/p/.claude/settings.json', true],
    ['/p/.claude/hooks/check.sh', true],
    ['/p/.claude/agents/reviewer.md', true],
    ['/p/.claude/commands/deploy.md', false],
    ['/p/.claude/skills/x/SKILL.md', true],
    ['/p/.claude/skills/x/reference.md', false],
    ['/p/.mcp.json', true],
    ['/p/team.code-workspace', true],
    ['/p/.claude/commands', true],
    ['/p/.git/hooks/pre-commit', true],
    ['/p/.git', true],
    ['/p/.vscode/settings.json', true],
    ['/p/.idea/workspace.xml', true],
    ['/p/.gitignore', false],
    ['/p/src/.claudeish/x', false],
    ['/p/src/index.ts', false],
    // Other agents' hook files Hookwise runs: creating or changing one asks.
    ['/p/.github/hooks/guard.json', true],
    ['/p/.github/copilot/settings.local.json', true],
    ['/p/.github/workflows/ci.yml', false],
    ['/p/.github/hooks', false],
    ['/home/u/.copilot/hooks/policy.json', true],
    ['/p/.cursor/hooks.json', true],
    ['/p/.cursor/rules/style.mdc', false],
    ['/p/.windsurf/hooks.json', true],
    ['/home/u/.codeium/windsurf/hooks.json', true],
    // Cline's user hooks: any file in the folder is a hook named after its event.
    ['/home/u/Documents/Cline/Hooks/PreToolUse', true],
    ['/home/u/Documents/Cline/Hooks/NewHookNobodyRuns', true],
    ['/home/u/Documents/Cline/Rules/style.md', false],
    ['/home/u/Documents/Cline/Hooks', false],
  ])('%s → protected %s', (file, expected) => {
    expect(protectedWriteReason(file, none) !== undefined).toBe(expected);
  });
  it('a hook script anywhere is protected', () => {
    expect(protectedWriteReason('/p/scripts/policy.sh', new Set(['/p/scripts/policy.sh']))).toMatch(/script a configured hook runs/);
  });
});

const env = useRuntimeEnv();

/** Writes `PWNED` to each file in one model reply, in bypassPermissions; returns each call's final status by file. */
async function writeAll(files: readonly string[], settings: Record<string, unknown>): Promise<Map<string, string>> {
  await env.w.settings(settings);
  const script = [toolCallsReply(files.map((f, i) => ({ id: `w${i}`, name: 'Write', arguments: { file_path: f, content: 'PWNED' } }))), textReply('done')];
  const run = await env.runPrompt({ script, trusted: true, mode: 'bypassPermissions' });
  return new Map(files.map((f, i) => [f, run.toolStatus.get(`w${i}`) ?? 'not run']));
}

it('bypassPermissions, an allow rule for everything and a PreToolUse hook that allows all: protected writes are still denied headless', async () => {
  const policy = await env.w.write(
    'scripts/policy.sh',
    '#!/bin/sh\ncat >/dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\'\n',
  );
  await mkdir(path.join(env.w.ws, '.git'), { recursive: true });
  symlinkSync(path.join(env.w.ws, '.git'), path.join(env.w.ws, 'innocent'));
  const files = [
    '.claude/settings.json',
    '.claude/hooks/check.sh',
    '.git/config',
    'innocent/hooks/pre-commit',
    '.vscode/tasks.json',
    'scripts/policy.sh',
    '.claude/commands/deploy.md',
    'src/ok.ts',
  ].map((f) => path.join(env.w.ws, f));
  const status = await writeAll(files, {
    permissions: { allow: ['Write', 'Edit(**)'] },
    hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `sh "$CLAUDE_PROJECT_DIR"/scripts/policy.sh` }] }] },
  });

  for (const f of files.slice(0, 6)) expect([path.relative(env.w.ws, f), status.get(f)]).toEqual([path.relative(env.w.ws, f), 'denied']);
  expect(readFileSync(policy, 'utf8')).toContain('permissionDecision');
  expect(JSON.parse(readFileSync(path.join(env.w.ws, '.claude/settings.json'), 'utf8'))).toHaveProperty('hooks');
  expect(existsSync(path.join(env.w.ws, '.git/hooks/pre-commit'))).toBe(false);
  expect(status.get(files[6] as string)).toBe('done');
  expect(status.get(files[7] as string)).toBe('done');
});

it("a PermissionRequest hook may still allow a protected write (Claude Code's documented way out); a deny rule still denies", async () => {
  const allowHook = 'cat >/dev/null; echo \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\'';
  const files = [path.join(env.w.ws, '.vscode/settings.json'), path.join(env.w.ws, '.claude/agents/x.md')];
  const status = await writeAll(files, {
    permissions: { deny: ['Write(.claude/agents/**)'] },
    hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: allowHook }] }] },
  });
  expect(status.get(files[0] as string)).toBe('done');
  expect(readFileSync(files[0] as string, 'utf8')).toBe('PWNED');
  expect(status.get(files[1] as string)).toBe('denied');
});

it("VS Code's settings files (they can carry hookwise.hooks) are protected from Write and from Bash even while they hold no hooks", async () => {
  const userSettings = path.join(env.w.home, '.config', 'Code', 'User', 'settings.json');
  await mkdir(path.dirname(userSettings), { recursive: true });
  writeFileSync(userSettings, '{}');
  const script = [
    toolCallsReply([
      { id: 'w0', name: 'Write', arguments: { file_path: userSettings, content: '{"hookwise.hooks":{}}' } },
      { id: 'b0', name: 'Bash', arguments: { command: `echo '{"hookwise.hooks":{}}' > '${userSettings}'` } },
      { id: 'w1', name: 'Write', arguments: { file_path: path.join(env.w.ws, 'src', 'ok.ts'), content: 'ok' } },
    ]),
    textReply('done'),
  ];
  const run = await env.runPrompt({ script, trusted: true, mode: 'bypassPermissions', protectedFiles: [userSettings] });
  expect([run.toolStatus.get('w0'), run.toolStatus.get('b0'), run.toolStatus.get('w1')]).toEqual(['denied', 'denied', 'done']);
  expect(readFileSync(userSettings, 'utf8')).toBe('{}');
});
