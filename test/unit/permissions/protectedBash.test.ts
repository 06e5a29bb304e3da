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
    "printf '#!/bin/sh\\nexit 0\\n' > ~/Documents/Cline/Hooks/TaskStart",
    'rm -rf ~/Documents/Cline/Hooks',
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

// Other agents' hook folders: a folder above a hook file (`.cursor` above `.cursor/hooks.json`)
// asks while it holds that agent's hooks, or while nothing is at its name (a folder moved there
// could bring some); an existing folder without them (`.github` with only workflows) does not.
describe("protectedBashReason on folders above other agents' hook files", () => {
  const hooked = path.join(base, 'hooked');
  const plain = path.join(base, 'plain');
  const home = path.join(base, 'home');
  const put = (file: string, text = '{}'): void => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  for (const rel of [
    '.cursor/hooks.json',
    '.windsurf/hooks.json',
    '.codex/config.toml',
    '.gemini/settings.json',
    '.clinerules/hooks/PreToolUse',
    '.github/copilot/settings.json',
    '.github/workflows/ci.yml',
  ])
    put(path.join(hooked, rel));
  put(path.join(hooked, 'other/.github/hooks/guard.json'));
  symlinkSync(path.join(hooked, '.cursor'), path.join(hooked, 'cur'));
  for (const rel of ['.copilot/hooks/policy.json', '.codeium/windsurf/hooks.json', 'Documents/Cline/Hooks/PreToolUse']) put(path.join(home, rel));
  for (const rel of [
    '.github/workflows/ci.yml',
    '.cursor/rules/style.mdc',
    '.gemini/GEMINI.md',
    '.clinerules/style.md',
    'Documents/notes.md',
    '.codex/AGENTS.md',
  ])
    put(path.join(plain, rel));
  symlinkSync(path.join(base, 'nowhere'), path.join(plain, '.windsurf'));

  it.each([
    ['rm -rf .cursor', hooked, 'Cursor'],
    ['rm -rf ./.windsurf/', hooked, 'Windsurf'],
    ['mv .codex /tmp/old-codex', hooked, 'Codex'],
    ['rm -r .gemini', hooked, 'Gemini'],
    ['rm -rf .clinerules', hooked, 'Cline'],
    ['rm -rf .github', hooked, 'Copilot'],
    ['rm -rf .github/copilot', hooked, 'Copilot'],
    ['rm -rf other/.github', hooked, 'Copilot'],
    ['cd other && rm -rf .github', hooked, 'Copilot'],
    [`rm -rf ${path.join(home, '.copilot')}`, hooked, 'Copilot'],
    [`rm -rf ${path.join(home, '.codeium')}`, hooked, 'Windsurf'],
    [`mv ${path.join(home, '.codeium/windsurf')} /tmp/x`, hooked, 'Windsurf'],
    [`rm -rf ${path.join(home, 'Documents/Cline')}`, hooked, 'Cline'],
    [`rm -rf ${path.join(home, 'Documents')}`, hooked, 'Cline'],
    ['rm -rf .cur*', hooked, 'Cursor'],
    ['rm -rf .git?ub', hooked, 'Copilot'],
    ['rm -rf ./.c[l]inerules', hooked, 'Cline'],
    ['rm -rf cur/', hooked, 'Cursor'],
    ['find . -maxdepth 1 -name .cursor -exec rm -rf {} +', hooked, 'Cursor'],
    ['find . -maxdepth 1 -name ".gem*" | xargs rm -rf', hooked, 'Gemini'],
    ['cd .cursor && rm hooks.json', hooked, 'Cursor'],
    ['cd .cursor && cd .. && rm -rf ".cursor"', hooked, 'Cursor'],
    ['cd .cursor && rm -f hook*', hooked, 'Cursor'],
    // Nothing at the name yet: a folder moved, copied or linked there could bring hooks.
    ['mv /tmp/evil .cursor', base, 'Cursor'],
    ['cp -r /tmp/evil .github', base, 'Copilot'],
    ['ln -s /tmp/evil .copilot', plain, 'Copilot'],
    ['mv /tmp/evil .windsurf', plain, 'Windsurf'],
    [`mv /tmp/evil ${path.join(plain, 'Documents/Cline')}`, plain, 'Cline'],
  ])('%s asks (cwd %s), naming %s', (command, cwd, agent) => {
    expect(reason(command, cwd)).toMatch(new RegExp(`${agent} hooks`));
  });

  it.each([
    'git add .github',
    'ls .github .cursor .gemini .clinerules .codex',
    'rm -rf .cur*',
    'cat .cursor/rules/style.mdc',
    'ls Documents',
    'echo Documents',
    'mv /tmp/evil Documents',
    // An existing folder without hooks: the copy lands inside it, as .cursor/evil.
    'cp -r /tmp/evil .cursor',
    'find . -maxdepth 1 -name ".git*" -exec ls {} +',
  ])('%s does not ask where the folders hold no hooks', (command) => {
    expect(reason(command, plain)).toBeUndefined();
  });

  it.each(['cd .gemini && cat GEMINI.md', 'cd .cursor && ls', 'pushd .github/copilot && git log -1 .; popd', 'cd .cur* && ls rules'])(
    '%s does not ask: going into a folder with hooks does not change it',
    (command) => {
      expect(reason(command, hooked)).toBeUndefined();
    },
  );
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
