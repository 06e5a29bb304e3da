import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { protectedBashReason } from '../../../src/permissions/protectedBash';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useRuntimeEnv } from '../agent/runtimeHarness';

// A Bash command that names the agent's own hook configuration (settings files, hook scripts,
// agent and skill definitions, .mcp.json, VS Code settings holding hooks) asks a person in
// every mode: the shell is how an agent would make itself permanent.

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'hookwise-protected-bash-')));
const ws = path.join(base, 'ws');
mkdirSync(path.join(ws, '.claude', 'hooks'), { recursive: true });
mkdirSync(path.join(ws, 'scripts'));
writeFileSync(path.join(ws, 'scripts', 'guard.sh'), 'exit 0');
writeFileSync(path.join(ws, '.claude', 'settings.json'), '{}');
symlinkSync(path.join(ws, '.claude', 'settings.json'), path.join(ws, 'notes.txt'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const scripts = new Set([path.join(ws, 'scripts', 'guard.sh')]);
const configs = new Set([path.join(base, 'user', 'settings.json')]);
const reason = (command: string, cwd = ws): string | undefined => protectedBashReason(command, cwd, scripts, configs);

describe('protectedBashReason', () => {
  it.each([
    'echo \'{"hooks":{}}\' > .claude/settings.json',
    'echo x >>.claude/settings.local.json',
    'cat > .claude/hooks/new.sh <<EOF\nexit 0\nEOF',
    'sed -i s/exit/true/ scripts/guard.sh',
    'cd scripts && rm guard.sh',
    'rm -f "$PWD/.cla""ude/settings.json"',
    'cp x .cl\\aude/settings.json',
    'cp evil.json .cl*/settings.json',
    'mv x .mcp.json',
    'tee ~/.claude/settings.json',
    'node -e "1" --out=.mcp.json',
    'echo hi > notes.txt',
    `printf x > ${path.join(base, 'user', 'settings.json')}`,
    'echo $(cat .claude/agents/reviewer.md)',
    'bash -c "echo > .claude/skills/x/SKILL.md"',
    'echo {} > .vscode/settings.json',
    'echo {} > my.code-workspace',
  ])('%s asks', (command) => {
    expect(reason(command)).toBeDefined();
  });
  it.each([
    'git status',
    'git commit -m "wip" && git push',
    'npm test',
    'ls -la src',
    'cat .claude/commands/deploy.md',
    'echo .git/config',
    'cat .vscode/tasks.json',
    'rm -rf dist',
  ])('%s does not ask', (command) => {
    expect(reason(command)).toBeUndefined();
  });
  it('a relative name is judged from the cwd it runs in', () => {
    expect(reason('echo x > settings.json', path.join(ws, '.claude'))).toBeDefined();
    expect(reason('echo x > settings.json', path.join(ws, 'scripts'))).toBeUndefined();
  });
  it('a command too long to check asks (fail closed)', () => {
    const long = Array.from({ length: 2_100 }, (_, i) => `w${i}`).join(' ');
    expect(reason(`echo ${long}`)).toMatch(/too many to check/);
  });
});

const env = useRuntimeEnv();

it('bypassPermissions, an allow-all rule and a PreToolUse hook that allows: a Bash command writing the hook config is still denied headless; plain commands run', async () => {
  await env.w.settings({
    permissions: { allow: ['Bash'] },
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: 'cat >/dev/null; echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\'' }],
        },
      ],
    },
  });
  const settingsFile = path.join(env.w.ws, '.claude', 'settings.json');
  const before = readFileSync(settingsFile, 'utf8');
  const script = [
    toolCallsReply([
      { id: 'b0', name: 'Bash', arguments: { command: `echo '{"hooks":{}}' > .claude/settings.json` } },
      { id: 'b1', name: 'Bash', arguments: { command: 'echo ok > out.txt' } },
    ]),
    textReply('done'),
  ];
  const run = await env.runPrompt({ script, trusted: true, mode: 'bypassPermissions' });
  expect(run.toolStatus.get('b0')).toBe('denied');
  expect(run.toolStatus.get('b1')).toBe('done');
  expect(readFileSync(settingsFile, 'utf8')).toBe(before);
  expect(readFileSync(path.join(env.w.ws, 'out.txt'), 'utf8')).toBe('ok\n');
});
