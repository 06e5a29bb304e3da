import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonResult, runCliProcess } from '../../support/cliHarness';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// The managed policy's `enabledPlugins` (Claude Code's managed-settings.json, here through
// HOOKWISE_MANAGED_SETTINGS): `true` force-enables an installed plugin and `false` keeps it off,
// whatever the user or project settings say; the plugins it force-enables keep their hooks under
// allowManagedHooksOnly. Real processes: the plugin hooks are shell scripts.

const suite = useCliSuite();

const managedFile = (): string => path.join(suite.w.base, 'managed-settings.json');
const userSettings = (): string => path.join(suite.w.home, '.claude', 'settings.json');
const writeJson = async (file: string, value: unknown): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
};

/**
 * Installs plugin `<name>@acme` under ~/.claude/plugins (install record included): its PreToolUse
 * hook leaves `<name>-ran` in the project and refuses `rm -rf`; its agent `<name>-checker` has a
 * frontmatter hook.
 */
async function installPlugins(...names: string[]): Promise<void> {
  const { w } = suite;
  const records: Record<string, unknown> = {};
  for (const name of names) {
    const root = path.join(w.home, '.claude', 'plugins', 'cache', 'acme', name, '1.0.0');
    records[`${name}@acme`] = [{ scope: 'user', installPath: root, version: '1.0.0' }];
    await writeJson(path.join(root, '.claude-plugin', 'plugin.json'), { name, version: '1.0.0' });
    await writeJson(path.join(root, 'hooks', 'hooks.json'), {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/guard.sh"' }] }] },
    });
    await writeFile(
      path.join(root, 'guard.sh'),
      `input=$(cat)\ntouch "$CLAUDE_PROJECT_DIR/${name}-ran"\ncase "$input" in *"rm -rf"*) echo "${name}: no rm -rf" >&2; exit 2;; esac\nexit 0\n`,
    );
    await mkdir(path.join(root, 'agents'), { recursive: true });
    await writeFile(
      path.join(root, 'agents', 'checker.md'),
      `---\nname: ${name}-checker\ndescription: Checks\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: exit 0\n---\nYou check.\n`,
    );
  }
  await writeJson(path.join(w.home, '.claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: records });
}

const rmCall = () => [toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'rm -rf build' } }]), textReply('ok')];

const lastToolResult = (messages: readonly Record<string, unknown>[]): string => String(messages.filter((m) => m.role === 'tool').at(-1)?.content);

/** `hookwise hooks list --json` in the test workspace: each hook's source and note. */
async function listHooks(): Promise<{ source: string; note?: string; agentType?: string }[]> {
  const list = await runCliProcess(suite.cli, suite.w, ['hooks', 'list', '--json']);
  expect(list.code).toBe(0);
  return JSON.parse(list.stdout) as { source: string; note?: string; agentType?: string }[];
}

describe('managed enabledPlugins', () => {
  it('a plugin the policy force-enables runs its hook though the user turns it off, and the user file is told so', async () => {
    await installPlugins('lint-kit');
    await writeJson(managedFile(), { enabledPlugins: { 'lint-kit@acme': true } });
    await writeJson(userSettings(), { enabledPlugins: { 'lint-kit@acme': false } });
    await suite.w.settings({ permissions: { allow: ['Bash'] } });
    const s = await suite.serve(rmCall());
    const out = await suite.runPrompt(s, 'clean', 4);
    expect(out.code).toBe(0);
    expect(lastToolResult(s.requests[1]?.body.messages ?? [])).toContain('lint-kit: no rm -rf');
    expect(out.stderr).toMatch(
      /hookwise: ~\/\.claude\/settings\.json:\d+:\d+ warning enabledPlugins\["lint-kit@acme"\]: "lint-kit@acme": false here is ignored: the managed policy \(.*\) force-enables this plugin/,
    );
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', source: 'plugin lint-kit › hooks/hooks.json › hooks.PreToolUse[0].hooks[0]' }),
    );
    const sources = (await listHooks()).map((h) => `${h.source}${h.note ? ` (${h.note})` : ''}`);
    expect(sources).toContain('plugin lint-kit › hooks/hooks.json › hooks.PreToolUse[0].hooks[0] (plugin enabled by managed policy)');
  });

  it('allowManagedHooksOnly: the force-enabled plugin’s hooks (hooks.json and agent frontmatter) still run; a project hook and a user-enabled plugin’s do not', async () => {
    await installPlugins('lint-kit', 'other-kit');
    await writeJson(managedFile(), { allowManagedHooksOnly: true, enabledPlugins: { 'lint-kit@acme': true } });
    await writeJson(userSettings(), { enabledPlugins: { 'other-kit@acme': true } });
    await suite.w.settings({
      permissions: { allow: ['Bash'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat >/dev/null; touch "$CLAUDE_PROJECT_DIR/project-ran"' }] }] },
    });
    const s = await suite.serve(rmCall());
    const out = await suite.runPrompt(s, 'clean', 4);
    expect(out.code).toBe(0);
    expect(lastToolResult(s.requests[1]?.body.messages ?? [])).toContain('lint-kit: no rm -rf');
    expect([suite.w.exists('lint-kit-ran'), suite.w.exists('other-kit-ran'), suite.w.exists('project-ran')]).toEqual([true, false, false]);
    expect(out.stderr).toMatch(/plugin other-kit › hooks\/hooks\.json warning : 1 hook\(s\) here is ignored: .*allowManagedHooksOnly/);
    expect(out.stderr).toMatch(/\.claude\/settings\.json warning : 1 hook\(s\) here is ignored: .*allowManagedHooksOnly/);
    expect(await listHooks()).toEqual([
      expect.objectContaining({ source: 'plugin lint-kit › hooks/hooks.json › hooks.PreToolUse[0].hooks[0]', note: 'plugin enabled by managed policy' }),
      expect.objectContaining({
        source: 'plugin lint-kit › agents/checker.md › hooks.PreToolUse[0].hooks[0]',
        agentType: 'lint-kit-checker',
        note: 'plugin enabled by managed policy',
      }),
    ]);
  });

  it('a plugin the policy turns off stays off though the user enables it, and the user file is told so', async () => {
    await installPlugins('lint-kit');
    await writeJson(managedFile(), { enabledPlugins: { 'lint-kit@acme': false } });
    await writeJson(userSettings(), { enabledPlugins: { 'lint-kit@acme': true } });
    await suite.w.settings({ permissions: { allow: ['Bash'] } });
    const s = await suite.serve(rmCall());
    const out = await suite.runPrompt(s, 'clean', 4);
    expect(out.code).toBe(0);
    expect(suite.w.exists('lint-kit-ran')).toBe(false);
    expect(lastToolResult(s.requests[1]?.body.messages ?? [])).not.toContain('lint-kit: no rm -rf');
    expect(out.stderr).toMatch(
      /~\/\.claude\/settings\.json:\d+:\d+ warning enabledPlugins\["lint-kit@acme"\]: "lint-kit@acme": true here is ignored: .* turns this plugin off/,
    );
    expect(await listHooks()).toEqual([]);
  });
});
