import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliRun } from '../../support/cliHarness';
import { parseJsonResult } from '../../support/cliHarness';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// A Claude Code plugin, headless: its hooks run as real processes with ${CLAUDE_PLUGIN_ROOT} /
// ${CLAUDE_PLUGIN_DATA}, its command is /<plugin>:<name>, its agent is a subagent type and its
// .mcp.json server's tools are offered — from --plugin-dir and from Claude Code's install records.

const suite = useCliSuite();
const SERVER = path.resolve(__dirname, '../../fixtures/mcp/server.mjs');

/** The guard script a plugin ships: records its plugin variables, refuses `rm -rf`. */
const GUARD = `input=$(cat)
printf '%s\\n%s\\n' "$CLAUDE_PLUGIN_ROOT" "$CLAUDE_PLUGIN_DATA" > "$CLAUDE_PROJECT_DIR/plugin-env.txt"
case "$input" in *"rm -rf"*) echo "lint-kit: no rm -rf" >&2; exit 2;; esac
exit 0
`;

/** Writes a plugin root `lint-kit` (hooks + command + agent + MCP server) at `root`. */
async function writePlugin(root: string): Promise<void> {
  const file = async (rel: string, text: string): Promise<void> => {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  };
  await file('.claude-plugin/plugin.json', JSON.stringify({ name: 'lint-kit', version: '1.0.0' }));
  await file(
    'hooks/hooks.json',
    JSON.stringify({
      description: 'Refuses rm -rf',
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh"' }] }] },
    }),
  );
  await file('scripts/guard.sh', GUARD);
  await file('commands/greet.md', '---\ndescription: Greet someone\n---\nSay hello to $ARGUMENTS.');
  await file('agents/reviewer.md', '---\nname: plugin-reviewer\ndescription: Reviews with the lint kit\n---\nYou are the lint-kit reviewer.');
  await file('.mcp.json', JSON.stringify({ mcpServers: { kit: { command: process.execPath, args: [SERVER] } } }));
}

function run(s: OpenAiTestServer, prompt: string, ...extra: string[]): Promise<CliRun> {
  return suite.runPrompt(s, prompt, 4, ...extra);
}

const lastToolResult = (s: OpenAiTestServer, n: number): string =>
  String((s.requests[n]?.body.messages ?? []).filter((m) => m.role === 'tool').at(-1)?.content);

describe('plugins', () => {
  it('--plugin-dir: the plugin hook runs with CLAUDE_PLUGIN_ROOT/DATA, blocks, and is labelled with the plugin', async () => {
    const root = path.join(suite.w.base, 'lint-kit');
    await writePlugin(root);
    await suite.w.settings({ permissions: { allow: ['Bash'] } });
    const s = await suite.serve([toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'rm -rf build' } }]), textReply('ok')]);
    const out = await run(s, 'clean', '--plugin-dir', root);
    expect(out.code).toBe(0);
    expect(lastToolResult(s, 1)).toContain('lint-kit: no rm -rf');
    const [pluginRoot, dataDir] = suite.w.read('plugin-env.txt').trim().split('\n');
    expect(pluginRoot).toBe(root);
    expect(dataDir).toBe(path.join(suite.w.home, '.claude', 'plugins', 'data', 'lint-kit-inline'));
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', source: 'plugin lint-kit › hooks/hooks.json › hooks.PreToolUse[0].hooks[0]' }),
    );
  });

  it('--plugin-dir: /lint-kit:greet expands the plugin command, its agent is a subagent type and its MCP server tools are offered', async () => {
    const root = path.join(suite.w.base, 'lint-kit');
    await writePlugin(root);
    const s = await suite.serve([textReply('hello')]);
    const out = await run(s, '/lint-kit:greet Bob', '--plugin-dir', root);
    expect(out.code).toBe(0);
    const body = s.requests[0]?.body;
    const user = [...(body?.messages ?? [])].reverse().find((m) => m.role === 'user');
    expect(String(user?.content)).toBe('Say hello to Bob.');
    const tools = (body?.tools ?? []) as { function: { name: string; description?: string } }[];
    expect(tools.map((t) => t.function.name)).toContain('mcp__kit__echo');
    expect(tools.find((t) => t.function.name === 'Agent')?.function.description).toContain('plugin-reviewer');
  });

  it('an installed plugin enabled in ~/.claude/settings.json runs its hook; allowManagedHooksOnly turns it off', async () => {
    const { w } = suite;
    const root = path.join(w.home, '.claude', 'plugins', 'cache', 'acme', 'lint-kit', '1.0.0');
    await writePlugin(root);
    await writeFile(
      path.join(w.home, '.claude', 'plugins', 'installed_plugins.json'),
      JSON.stringify({ version: 2, plugins: { 'lint-kit@acme': [{ scope: 'user', installPath: root, version: '1.0.0' }] } }),
    );
    await writeFile(path.join(w.home, '.claude', 'settings.json'), JSON.stringify({ enabledPlugins: { 'lint-kit@acme': true } }));
    await w.settings({ permissions: { allow: ['Bash'] } });
    const script = () => [toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'rm -rf build' } }]), textReply('ok')];
    const s = await suite.serve([...script(), ...script()]);
    await run(s, 'clean');
    expect(lastToolResult(s, 1)).toContain('lint-kit: no rm -rf');
    expect(w.read('plugin-env.txt')).toContain(path.join(w.home, '.claude', 'plugins', 'data', 'lint-kit-acme'));

    await writeFile(path.join(w.base, 'managed-settings.json'), JSON.stringify({ allowManagedHooksOnly: true }));
    const out = await run(s, 'clean');
    expect(lastToolResult(s, 3)).not.toContain('lint-kit: no rm -rf');
    expect(out.stderr).toContain('plugin lint-kit › hooks/hooks.json');
    expect(out.stderr).toContain('allowManagedHooksOnly');
  });

  it('a plugin enabled but not installed, or a bad manifest path, is reported with the file and the agent still runs', async () => {
    const { w } = suite;
    await mkdir(path.join(w.home, '.claude'), { recursive: true });
    await writeFile(path.join(w.home, '.claude', 'settings.json'), JSON.stringify({ enabledPlugins: { 'ghost@acme': true } }));
    const root = path.join(w.base, 'escaper');
    await mkdir(path.join(root, '.claude-plugin'), { recursive: true });
    await writeFile(path.join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'escaper', hooks: '../../outside.json' }));
    const s = await suite.serve([textReply('fine')]);
    const out = await run(s, 'hi', '--plugin-dir', root);
    expect(out.code).toBe(0);
    expect(out.stderr).toContain(
      `${path.join(w.home, '.claude', 'settings.json')} › enabledPlugins["ghost@acme"]: plugin "ghost@acme" is enabled but not installed`,
    );
    expect(out.stderr).toContain(`${path.join(root, '.claude-plugin', 'plugin.json')} › hooks: "../../outside.json" is outside the plugin root`);
  });

  it('a plugin skill is <plugin>:<name>; its SKILL.md hooks run with CLAUDE_PLUGIN_ROOT only after the Skill call, labelled with the plugin', async () => {
    const root = path.join(suite.w.base, 'lint-kit');
    await writePlugin(root);
    await writeFile(
      path.join(root, 'scripts', 'no-shell.sh'),
      'cat > /dev/null; echo "$CLAUDE_PLUGIN_ROOT" > "$CLAUDE_PROJECT_DIR/skill-env.txt"; echo "tidy: no shell" >&2; exit 2\n',
    );
    await mkdir(path.join(root, 'skills', 'tidy'), { recursive: true });
    await writeFile(
      path.join(root, 'skills', 'tidy', 'SKILL.md'),
      [
        '---',
        'description: Tidies the repo',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        '        - type: command',
        '          command: sh "${CLAUDE_PLUGIN_ROOT}/scripts/no-shell.sh"',
        '---',
        'Tidy up.',
      ].join('\n'),
    );
    await suite.w.settings({ permissions: { allow: ['Bash(touch:*)'] } });
    const s = await suite.serve([
      toolCallsReply([{ name: 'Bash', arguments: { command: 'touch before.txt' } }]),
      toolCallsReply([{ name: 'Skill', arguments: { skill: 'lint-kit:tidy' } }]),
      toolCallsReply([{ name: 'Bash', arguments: { command: 'touch after.txt' } }]),
      textReply('done'),
    ]);
    const out = await suite.runPrompt(s, 'tidy', 6, '--plugin-dir', root);
    expect(out.code).toBe(0);
    const skillTool = ((s.requests[0]?.body.tools ?? []) as { function: { name: string; description?: string } }[]).find((t) => t.function.name === 'Skill');
    expect(skillTool?.function.description).toContain('- lint-kit:tidy: Tidies the repo');
    expect(suite.w.exists('before.txt')).toBe(true);
    expect(lastToolResult(s, 2)).toContain('Tidy up.');
    expect(suite.w.exists('after.txt')).toBe(false);
    expect(lastToolResult(s, 3)).toContain('tidy: no shell');
    expect(suite.w.read('skill-env.txt').trim()).toBe(root);
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', source: 'skill lint-kit:tidy › SKILL.md › hooks.PreToolUse[0].hooks[0]' }),
    );
  });

  it("a plugin agent's hooks: frontmatter runs for that subagent only, with CLAUDE_PLUGIN_ROOT; allowManagedHooksOnly turns it off", async () => {
    const { w } = suite;
    const root = path.join(w.base, 'lint-kit');
    await writePlugin(root);
    await writeFile(
      path.join(root, 'scripts', 'agent-guard.sh'),
      'cat > /dev/null; echo "$CLAUDE_PLUGIN_ROOT" >> "$CLAUDE_PROJECT_DIR/agent-hook.txt"; echo "checker: no shell" >&2; exit 2\n',
    );
    await writeFile(
      path.join(root, 'agents', 'checker.md'),
      [
        '---',
        'name: plugin-checker',
        'description: Checks',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks:',
        '        - type: command',
        '          command: sh "${CLAUDE_PLUGIN_ROOT}/scripts/agent-guard.sh"',
        '---',
        'You check.',
      ].join('\n'),
    );
    await w.settings({ permissions: { allow: ['Bash(touch:*)'] } });
    const script = () => [
      toolCallsReply([{ id: 'call_agent', name: 'Agent', arguments: { description: 'check', prompt: 'Touch sub.txt', subagent_type: 'plugin-checker' } }]),
      toolCallsReply([{ name: 'Bash', arguments: { command: 'touch sub.txt' } }]),
      textReply('sub done'),
      toolCallsReply([{ name: 'Bash', arguments: { command: 'touch main.txt' } }]),
      textReply('done'),
    ];
    const s = await suite.serve([...script(), ...script()]);
    const first = await suite.runPrompt(s, 'check', 6, '--plugin-dir', root);
    expect(first.code).toBe(0);
    expect(w.exists('sub.txt')).toBe(false);
    expect(w.exists('main.txt')).toBe(true);
    expect(w.read('agent-hook.txt').trim()).toBe(root);
    expect(parseJsonResult(first).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', source: 'plugin lint-kit › agents/checker.md › hooks.PreToolUse[0].hooks[0]' }),
    );

    await writeFile(path.join(w.base, 'managed-settings.json'), JSON.stringify({ allowManagedHooksOnly: true }));
    const second = await suite.runPrompt(s, 'check', 6, '--plugin-dir', root);
    expect(second.code).toBe(0);
    expect(w.exists('sub.txt')).toBe(true);
    expect(second.stderr).toContain('plugin lint-kit › agents/checker.md');
  });
});
