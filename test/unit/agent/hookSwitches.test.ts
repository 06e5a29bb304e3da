import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookwiseRuntime } from '../../../src/runtime/hookwiseRuntime';
import { SessionManager } from '../../../src/runtime/sessionManager';
import { standardConfigSources } from '../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import { hookSwitchId } from '../../../src/hooks/config/hookSwitches';
import { explainHooks } from '../../../src/hooks/explain/explainHooks';
import type { CliWorkspace } from '../../support/cliHarness';
import { makeCliWorkspace } from '../../support/cliHarness';
import { RecordingModel } from './agentHarness';

// `hookwise.hooks.disabled`: a switched-off hook does not run (real command hooks, a real
// session), explain says why, and a managed policy hook runs whatever the list says.

let w: CliWorkspace;
beforeEach(async () => {
  w = await makeCliWorkspace();
});
afterEach(async () => {
  await w.cleanup();
});

async function startWith(
  disable: (ids: string[]) => string[],
): Promise<{ ran: (name: string) => boolean; config: Awaited<ReturnType<typeof loadHookConfig>> }> {
  const managedFile = path.join(w.home, 'managed-settings.json');
  await w.write(
    path.relative(w.ws, managedFile),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch managed.txt' }] }] } }),
  );
  await w.settings({
    hooks: {
      SessionStart: [
        {
          hooks: [
            { type: 'command', command: 'touch first.txt' },
            { type: 'command', command: 'touch second.txt' },
          ],
        },
      ],
    },
  });
  const sources = standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }], managedSettingsFile: managedFile });
  const all = (await loadHookConfig(sources)).hooks.map(hookSwitchId);
  const config = await loadHookConfig(sources, { disabledHooks: disable(all) });
  const transcriptDir = path.join(w.hookwiseHome, 'projects', 'ws');
  const runtime = new HookwiseRuntime({ projectDir: w.ws, homeDir: w.home, model: new RecordingModel([]), transcriptDir });
  runtime.applyConfig(config, { trusted: true });
  const manager = new SessionManager({
    runtime,
    projectDir: w.ws,
    homeDir: w.home,
    transcriptDir,
    settings: () => ({ permissionMode: 'default', trusted: true, emit: () => undefined }),
  });
  await manager.ensureStarted(new AbortController().signal);
  return { ran: (name) => existsSync(path.join(w.ws, name)), config };
}

describe('hookwise.hooks.disabled', () => {
  it('a switched-off hook does not run, the others do, and explain says it is disabled', async () => {
    const { ran, config } = await startWith(() => ['.claude/settings.json › hooks.SessionStart[0].hooks[1]']);
    expect([ran('first.txt'), ran('second.txt'), ran('managed.txt')]).toEqual([true, false, true]);
    const rows = explainHooks(config, { event: 'SessionStart', input: { source: 'startup' }, cwd: w.ws, trust: { trusted: true } });
    expect(rows.find((r) => r.command === 'touch second.txt')).toMatchObject({ outcome: 'skipped', reason: 'disabled by hookwise.hooks.disabled' });
    expect(rows.find((r) => r.command === 'touch first.txt')?.outcome).toBe('would run');
  });

  it('managed policy hooks cannot be switched off', async () => {
    const { ran, config } = await startWith((ids) => ids);
    expect([ran('first.txt'), ran('second.txt'), ran('managed.txt')]).toEqual([false, false, true]);
    const rows = explainHooks(config, { event: 'SessionStart', input: { source: 'startup' }, cwd: w.ws, trust: { trusted: true } });
    expect(rows.find((r) => r.command === 'touch managed.txt')?.outcome).toBe('would run');
  });
});
