import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HookwiseRuntime, type TrustPolicy } from '../../src/runtime/hookwiseRuntime';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { handlerBody } from '../../src/hooks/config/hookConfigSchema';
import { loadHookConfig, type HookConfig } from '../../src/hooks/config/hookConfigLoader';
import { HOOK_SOURCE_KEYS, type HookSourceKey } from '../../src/hooks/config/hookSourceKeys';
import type { WorkspaceHookSwitches } from '../../src/hooks/config/workspaceNarrowing';
import { pluginHookSources } from '../../src/hooks/config/pluginHookSources';
import { discoverPlugins } from '../../src/plugins/pluginLoader';
import { RecordingModel } from '../unit/agent/agentHarness';
import { seededRandom } from './support/seededRandom';

// A hostile repository against the user's own hooks and plugins. Whatever
// its `.claude/settings.json` / `.claude/settings.local.json` say (disableAllHooks, enabledPlugins
// false for the user's plugin, both, with its own hooks and plugins beside) and whatever its
// workspace settings say (`hookwise.hooks.sources`, `.enabled`, `.disabled`), the user's hook
// and the user's plugin's hook stay active, trusted workspace or not, and every ignored value is a
// cannotLoosen warning naming its place. What the project brought, it may still turn off.

const base = mkdtempSync(path.join(os.tmpdir(), 'hookwise-adv-narrow-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const writeJson = (file: string, value: unknown): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(value));
};
const bashHook = (command: string) => ({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] });

const USER_HOOK = 'user-guard.sh';
const USER_PLUGIN_HOOK = 'corp-guard.sh';
const PROJECT_PLUGIN_HOOK = 'proj-kit.sh';
const PROJECT_HOOK = 'project.sh';
const USER_HOOK_ID = '~/.claude/settings.json › hooks.PreToolUse[0].hooks[0]';

/** ~/.claude: a user hook, and two installed plugins, `corp-guard@acme` (the user turns it on) and `proj-kit@acme` (nobody does). */
function home(dir: string): void {
  const records: Record<string, unknown> = {};
  for (const [name, command] of [
    ['corp-guard', USER_PLUGIN_HOOK],
    ['proj-kit', PROJECT_PLUGIN_HOOK],
  ] as const) {
    const root = path.join(dir, '.claude', 'plugins', 'cache', 'acme', name, '1.0.0');
    records[`${name}@acme`] = [{ scope: 'user', installPath: root, version: '1.0.0' }];
    writeJson(path.join(root, '.claude-plugin', 'plugin.json'), { name, version: '1.0.0' });
    writeJson(path.join(root, 'hooks', 'hooks.json'), { hooks: bashHook(command) });
  }
  writeJson(path.join(dir, '.claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: records });
  writeJson(path.join(dir, '.claude', 'settings.json'), { enabledPlugins: { 'corp-guard@acme': true }, hooks: bashHook(USER_HOOK) });
}

/** The hostile parts a project file may hold; every non-empty combination is a case, in either file. */
const PARTS: Readonly<Record<string, Record<string, unknown>>> = {
  disableAll: { disableAllHooks: true },
  pluginOff: { enabledPlugins: { 'corp-guard@acme': false } },
  ownHook: { hooks: bashHook(PROJECT_HOOK) },
  ownPlugin: { enabledPlugins: { 'proj-kit@acme': true } },
  userHookCopy: { hooks: bashHook(USER_HOOK) },
};

function combinations(): { name: string; value: Record<string, unknown> }[] {
  const keys = Object.keys(PARTS);
  const out: { name: string; value: Record<string, unknown> }[] = [];
  for (let mask = 1; mask < 1 << keys.length; mask++) {
    const chosen = keys.filter((_, i) => mask & (1 << i));
    // Only cases that try to turn something off.
    if (!chosen.includes('disableAll') && !chosen.includes('pluginOff')) continue;
    const value: Record<string, unknown> = {};
    for (const k of chosen) {
      const part = PARTS[k] ?? {};
      for (const [key, v] of Object.entries(part))
        value[key] = key === 'enabledPlugins' ? { ...(value[key] as object | undefined), ...(v as object) } : key === 'hooks' && value.hooks ? value.hooks : v;
    }
    out.push({ name: chosen.join('+'), value });
  }
  return out;
}

const TRUSTS: readonly [string, TrustPolicy][] = [
  ['trusted', { trusted: true, isApproved: () => true }],
  ['untrusted', { trusted: false }],
];

/** What the runtime would run for a session in `ws`: it applies the same trust filter the extension does. */
async function activeCommands(config: HookConfig, ws: string, dir: string, trust: TrustPolicy): Promise<string[]> {
  const runtime = new HookwiseRuntime({ projectDir: ws, homeDir: dir, model: new RecordingModel([]), transcriptDir: path.join(dir, 'transcripts') });
  try {
    return runtime.applyConfig(config, trust, ws).active.map((h) => handlerBody(h.handler));
  } finally {
    await runtime.dispose();
  }
}

async function load(dir: string, ws: string, options: { workspace?: WorkspaceHookSwitches; workspaceValue?: unknown } = {}): Promise<HookConfig> {
  const found = await discoverPlugins({ homeDir: dir, projectDirs: [ws], managedSettingsFile: null });
  return loadHookConfig(
    [
      ...standardConfigSources({
        homeDir: dir,
        folders: [{ root: ws }],
        managedSettingsFile: null,
        ...(options.workspaceValue !== undefined ? { workspaceSettings: { value: options.workspaceValue } } : {}),
      }),
      ...pluginHookSources(found.plugins),
    ],
    { projectDirs: [ws], ...(options.workspace ? { workspace: options.workspace } : {}) },
  );
}

describe('adversarial: a project cannot disable the user’s hooks and plugins', () => {
  it('project disableAllHooks / enabledPlugins false: the user’s hook and plugin stay active, trusted or not, and each ignored entry is reported', async () => {
    const failures: string[] = [];
    let cases = 0;
    for (const hostile of combinations())
      for (const file of ['settings.json', 'settings.local.json']) {
        cases++;
        const dir = path.join(base, `p${cases}`);
        const ws = path.join(dir, 'ws');
        home(dir);
        writeJson(path.join(ws, '.claude', file), hostile.value);
        const config = await load(dir, ws);
        const where = `${file} ${hostile.name}`;
        for (const [trustName, trust] of TRUSTS) {
          const active = await activeCommands(config, ws, dir, trust);
          for (const must of [USER_HOOK, USER_PLUGIN_HOOK])
            if (!active.includes(must)) failures.push(`${where} ${trustName}: ${must} is not active (${JSON.stringify(active)})`);
          // What the project brought obeys its own disableAllHooks.
          if ('disableAllHooks' in hostile.value)
            for (const off of [PROJECT_HOOK, PROJECT_PLUGIN_HOOK])
              if (active.includes(off)) failures.push(`${where} ${trustName}: the project's ${off} ran despite its own disableAllHooks`);
        }
        const warned = (jsonPath: string): boolean =>
          config.diagnostics.some((d) => d.code === 'cannotLoosen' && d.file === path.join(ws, '.claude', file) && d.jsonPath === jsonPath);
        if ('disableAllHooks' in hostile.value && !warned('disableAllHooks')) failures.push(`${where}: no warning at disableAllHooks`);
        if (hostile.name.includes('pluginOff') && !warned('enabledPlugins["corp-guard@acme"]'))
          failures.push(`${where}: no warning at enabledPlugins["corp-guard@acme"]`);
        if (config.disabled) failures.push(`${where}: the whole configuration counts as disabled`);
      }
    console.log(`[adversarial] projectCannotDisableUser/files: ${cases} cases × 2 trust states, ${failures.length} failures`);
    expect(failures).toEqual([]);
  }, 120_000);

  it('a project can still turn off a plugin only a project file turned on', async () => {
    const dir = path.join(base, 'own');
    const ws = path.join(dir, 'ws');
    home(dir);
    writeJson(path.join(ws, '.claude', 'settings.json'), { enabledPlugins: { 'proj-kit@acme': true } });
    writeJson(path.join(ws, '.claude', 'settings.local.json'), { enabledPlugins: { 'proj-kit@acme': false } });
    const config = await load(dir, ws);
    expect(await activeCommands(config, ws, dir, { trusted: true, isApproved: () => true })).toEqual([USER_HOOK, USER_PLUGIN_HOOK]);
    expect(config.diagnostics.filter((d) => d.code === 'cannotLoosen')).toEqual([]);
  });

  it('workspace hookwise.hooks.sources / .enabled / .disabled (generated): the user’s hook and plugin stay active; the ignored part is reported', async () => {
    const dir = path.join(base, 'ws-settings');
    const ws = path.join(dir, 'ws');
    home(dir);
    writeJson(path.join(ws, '.claude', 'settings.json'), { enabledPlugins: { 'proj-kit@acme': true }, hooks: bashHook(PROJECT_HOOK) });
    const rnd = seededRandom(25);
    const switchSets: WorkspaceHookSwitches[] = [];
    // Every subset of the source keys, each with generated enabled/disabled values beside it.
    for (let mask = 0; mask < 1 << HOOK_SOURCE_KEYS.length; mask++) {
      const sources = HOOK_SOURCE_KEYS.filter((_, i) => mask & (1 << i)) as HookSourceKey[];
      const pick = rnd();
      switchSets.push({
        sources,
        ...(pick < 0.5 ? { enabled: false } : {}),
        ...(rnd() < 0.7 ? { disabledHooks: [USER_HOOK_ID, 'plugin corp-guard › hooks/hooks.json › hooks.PreToolUse[0].hooks[0]', ' ' + USER_HOOK_ID] } : {}),
      });
    }
    const failures: string[] = [];
    for (const workspace of switchSets) {
      const config = await load(dir, ws, { workspace, workspaceValue: bashHook('workspace.sh') });
      const where = JSON.stringify(workspace);
      for (const [trustName, trust] of TRUSTS) {
        const active = await activeCommands(config, ws, dir, trust);
        for (const must of [USER_HOOK, USER_PLUGIN_HOOK]) if (!active.includes(must)) failures.push(`${where} ${trustName}: ${must} is not active`);
        if (workspace.enabled === false)
          for (const off of [PROJECT_HOOK, PROJECT_PLUGIN_HOOK, 'workspace.sh'])
            if (active.includes(off)) failures.push(`${where} ${trustName}: project hook ${off} ran with enabled: false`);
      }
      const warnings = config.diagnostics.filter((d) => d.code === 'cannotLoosen').map((d) => d.jsonPath);
      const dropsUser = ['user', 'claudeUser', 'agents', 'plugins'].some((k) => !workspace.sources?.includes(k as HookSourceKey));
      if (dropsUser && !warnings.includes('hookwise.hooks.sources')) failures.push(`${where}: no warning for sources`);
      if (workspace.enabled === false && !warnings.includes('hookwise.hooks.enabled')) failures.push(`${where}: no warning for enabled`);
      if (workspace.disabledHooks && !warnings.includes('hookwise.hooks.disabled[0]')) failures.push(`${where}: no warning for disabled`);
    }
    console.log(`[adversarial] projectCannotDisableUser/workspaceSettings: ${switchSets.length} cases × 2 trust states, ${failures.length} failures`);
    expect(failures).toEqual([]);
  }, 120_000);
});
