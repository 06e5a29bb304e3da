import { describe, expect, it } from 'vitest';
import { standardConfigSources } from '../../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../../src/hooks/config/hookConfigLoader';
import { hookLocationId, hookSwitchId, isSwitchedOff } from '../../../../src/hooks/config/hookSwitches';
import type { LastGoodStore } from '../../../../src/hooks/config/lastGoodConfig';
import { bodyOf, memoryFs } from './configTestKit';

const group = (command: string, matcher = 'Bash') => ({ matcher, hooks: [{ type: 'command', command }] });
const settings = (...groups: ReturnType<typeof group>[]) => JSON.stringify({ hooks: { PreToolUse: groups } }, null, 2);
const inputs = standardConfigSources({ homeDir: '/home/u', folders: [{ root: '/ws' }] });
const PROJECT = '/ws/.claude/settings.json';

async function load(text: string, options: Parameters<typeof loadHookConfig>[1] = {}) {
  return loadHookConfig(inputs, { fs: memoryFs({ [PROJECT]: text }), ...options });
}

describe('hookwise.hooks.disabled names a hook by identity', () => {
  it('the id is readable, ends in a short hash, and does not change when a hook is inserted above', async () => {
    const before = await load(settings(group('./guard.sh'), group('./ask-before-risky.sh')));
    const after = await load(settings(group('./logger.sh'), group('./guard.sh'), group('./ask-before-risky.sh')));
    const id = (config: typeof before, body: string) => hookSwitchId(config.hooks.find((h) => bodyOf(h) === body)!);
    expect(id(before, './ask-before-risky.sh')).toMatch(/^\.claude\/settings\.json › PreToolUse › Bash › command:\.\/ask-before-risky\.sh #[0-9a-f]{8}$/);
    expect(id(after, './ask-before-risky.sh')).toBe(id(before, './ask-before-risky.sh'));
    expect(id(after, './guard.sh')).toBe(id(before, './guard.sh'));
    expect(new Set(after.hooks.map((h) => hookSwitchId(h))).size).toBe(3);
  });

  it('a switch turns off only its hook after an insert; a changed handler (even its timeout) gets a new id', async () => {
    const before = await load(settings(group('./guard.sh'), group('./ask.sh')));
    const askId = hookSwitchId(before.hooks[1]!);
    const after = await load(settings(group('./logger.sh'), group('./guard.sh'), group('./ask.sh')), { disabledHooks: [askId] });
    expect(after.hooks.filter((h) => isSwitchedOff(h, after.disabledHookIds ?? new Set())).map(bodyOf)).toEqual(['./ask.sh']);
    const timed = await load(settings(group('./guard.sh'), { matcher: 'Bash', hooks: [{ type: 'command', command: './ask.sh', timeout: 5 } as never] }), {
      disabledHooks: [askId],
    });
    expect(timed.vanishedSwitches).toEqual([{ layer: 'user', id: askId, index: 0 }]);
    expect(timed.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'switchVanished', displayFile: 'user settings', jsonPath: 'hookwise.hooks.disabled[0]' }),
    );
  });

  it('a position id that names a hook is migrated to its identity id; one naming nothing is reported', async () => {
    const config = await load(settings(group('./guard.sh'), group('./ask.sh')), {
      disabledHooks: ['.claude/settings.json › hooks.PreToolUse[1].hooks[0]', '.claude/settings.json › hooks.PreToolUse[7].hooks[0]', 'extension acme.guard'],
    });
    const ask = config.hooks[1]!;
    expect(hookLocationId(ask)).toBe('.claude/settings.json › hooks.PreToolUse[1].hooks[0]');
    expect(config.switchMigrations).toEqual([{ layer: 'user', from: '.claude/settings.json › hooks.PreToolUse[1].hooks[0]', to: hookSwitchId(ask) }]);
    expect([...(config.disabledHookIds ?? [])]).toEqual([hookSwitchId(ask), 'extension acme.guard']);
    expect(config.vanishedSwitches).toEqual([{ layer: 'user', id: '.claude/settings.json › hooks.PreToolUse[7].hooks[0]', index: 1 }]);
    // The warning points at that entry of the setting, not at its place among the vanished ones.
    expect(config.diagnostics).toContainEqual(expect.objectContaining({ code: 'switchVanished', jsonPath: 'hookwise.hooks.disabled[1]' }));
  });
});

describe('a broken config file keeps its last good version in force', () => {
  const store = (): LastGoodStore & { files: Map<string, string> } => {
    const files = new Map<string, string>();
    return {
      files,
      get: async (file) => files.get(file),
      remember: async (file, text) => void (text === undefined ? files.delete(file) : files.set(file, text)),
    };
  };
  const GOOD = settings(group('./guard.sh'));
  const BROKEN = GOOD.split('\n')
    .filter((l) => !l.includes('"PreToolUse"'))
    .join('\n');

  it('remembers a good file, then loads it in place of the broken one, with the same hooks and hashes', async () => {
    const lastGood = store();
    const good = await load(GOOD, { lastGood });
    expect(lastGood.files.get(PROJECT)).toBe(GOOD);
    const broken = await load(BROKEN, { lastGood });
    expect(broken.hooks.map(bodyOf)).toEqual(['./guard.sh']);
    expect(broken.hooks[0]?.hash).toBe(good.hooks[0]?.hash);
    expect(broken.brokenFiles).toEqual([expect.objectContaining({ file: PROJECT, displayFile: '.claude/settings.json', inForce: 'lastGood', project: true })]);
    expect(broken.diagnostics.map((d) => d.code)).toContain('syntaxError');
    expect(broken.diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'lastGoodInForce',
        severity: 'warning',
        message: expect.stringContaining('last good version in force, the file has an error'),
      }),
    );
    expect(lastGood.files.get(PROJECT)).toBe(GOOD);
  });

  it('with no last good version the file is reported as not in force; a removed file forgets its copy', async () => {
    const lastGood = store();
    const none = await load(BROKEN, { lastGood });
    expect(none.brokenFiles?.[0]?.inForce).toBe('none');
    expect(none.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'lastGoodInForce', severity: 'error', message: expect.stringContaining('NOT in force') }),
    );
    await load(GOOD, { lastGood });
    await loadHookConfig(inputs, { fs: memoryFs({}), lastGood });
    expect(lastGood.files.has(PROJECT)).toBe(false);
  });

  it('a bad entry in a file that parses is not a broken file', async () => {
    const lastGood = store();
    await load(GOOD, { lastGood });
    const config = await load(settings(group('./other.sh'), { matcher: 'Bash', hooks: [{ type: 'nope', command: 'x' } as never] }), { lastGood });
    expect(config.brokenFiles).toBeUndefined();
    expect(config.hooks.map(bodyOf)).toEqual(['./other.sh']);
  });
});
