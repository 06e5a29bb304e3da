import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvents';
import { HookwiseRuntime } from '../../../src/agent/hookwiseRuntime';
import { protectedWriteReason } from '../../../src/agent/protectedWrites';
import { standardConfigSources } from '../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { startOpenAiTestServer, textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliWorkspace } from '../cli/cliHarness';
import { makeCliWorkspace } from '../cli/cliHarness';

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
    ['/p/.claude/skills/x/SKILL.md', false],
    ['/p/.claude/commands', true],
    ['/p/.git/hooks/pre-commit', true],
    ['/p/.git', true],
    ['/p/.vscode/settings.json', true],
    ['/p/.idea/workspace.xml', true],
    ['/p/.gitignore', false],
    ['/p/src/.claudeish/x', false],
    ['/p/src/index.ts', false],
  ])('%s → protected %s', (file, expected) => {
    expect(protectedWriteReason(file, none) !== undefined).toBe(expected);
  });
  it('a hook script anywhere is protected', () => {
    expect(protectedWriteReason('/p/scripts/policy.sh', new Set(['/p/scripts/policy.sh']))).toMatch(/script a configured hook runs/);
  });
});

let w: CliWorkspace;
let server: OpenAiTestServer | undefined;
beforeEach(async () => {
  w = await makeCliWorkspace();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await w.cleanup();
});

async function writeAll(files: readonly string[], settings: Record<string, unknown>): Promise<Map<string, string>> {
  await w.settings(settings);
  server = await startOpenAiTestServer({ script: [toolCallsReply(files.map((f, i) => ({ id: `w${i}`, name: 'Write', arguments: { file_path: f, content: 'PWNED' } }))), textReply('done')] });
  const runtime = new HookwiseRuntime({
    projectDir: w.ws,
    homeDir: w.home,
    model: new OpenAiModelClient({ model: 'test-model', baseURL: server.url, apiKey: 'k', maxRetries: 0 }),
    transcriptDir: path.join(w.hookwiseHome, 'projects', 'ws'),
  });
  runtime.applyConfig(await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] })), { trusted: true });
  const events: AgentEvent[] = [];
  const session = runtime.createSession({ permissionMode: 'bypassPermissions', trusted: true, emit: (e) => events.push(e) });
  await session.start('startup', new AbortController().signal);
  await session.submit('go', new AbortController().signal);
  await session.end('other');
  const status = new Map<string, string>();
  for (const e of events) if (e.type === 'toolStatus') status.set(files[Number(e.toolUseId.slice(1))] as string, e.status);
  return status;
}

it('bypassPermissions, an allow rule for everything and a PreToolUse hook that allows all: protected writes are still denied headless', async () => {
  const policy = await w.write('scripts/policy.sh', '#!/bin/sh\ncat >/dev/null\necho \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\'\n');
  await mkdir(path.join(w.ws, '.git'), { recursive: true });
  symlinkSync(path.join(w.ws, '.git'), path.join(w.ws, 'innocent'));
  const files = ['.claude/settings.json', '.claude/hooks/check.sh', '.git/config', 'innocent/hooks/pre-commit', '.vscode/tasks.json', 'scripts/policy.sh', '.claude/commands/deploy.md', 'src/ok.ts'].map((f) => path.join(w.ws, f));
  const status = await writeAll(files, {
    permissions: { allow: ['Write', 'Edit(**)'] },
    hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: `sh "$CLAUDE_PROJECT_DIR"/scripts/policy.sh` }] }] },
  });

  for (const f of files.slice(0, 6)) expect([path.relative(w.ws, f), status.get(f)]).toEqual([path.relative(w.ws, f), 'denied']);
  expect(readFileSync(policy, 'utf8')).toContain('permissionDecision');
  expect(JSON.parse(readFileSync(path.join(w.ws, '.claude/settings.json'), 'utf8'))).toHaveProperty('hooks');
  expect(existsSync(path.join(w.ws, '.git/hooks/pre-commit'))).toBe(false);
  expect(status.get(files[6] as string)).toBe('done');
  expect(status.get(files[7] as string)).toBe('done');
});

it('a PermissionRequest hook may still allow a protected write (Claude Code\'s documented way out); a deny rule still denies', async () => {
  const allowHook = 'cat >/dev/null; echo \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\'';
  const files = [path.join(w.ws, '.vscode/settings.json'), path.join(w.ws, '.claude/agents/x.md')];
  const status = await writeAll(files, {
    permissions: { deny: ['Write(.claude/agents/**)'] },
    hooks: { PermissionRequest: [{ hooks: [{ type: 'command', command: allowHook }] }] },
  });
  expect(status.get(files[0] as string)).toBe('done');
  expect(readFileSync(files[0] as string, 'utf8')).toBe('PWNED');
  expect(status.get(files[1] as string)).toBe('denied');
});
