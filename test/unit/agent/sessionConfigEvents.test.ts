import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvents';
import { configChangeSource } from '../../../src/agent/configChange';
import { HookwiseRuntime } from '../../../src/runtime/hookwiseRuntime';
import { SessionManager } from '../../../src/runtime/sessionManager';
import { standardConfigSources } from '../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import type { CliWorkspace } from '../../support/cliHarness';
import { makeCliWorkspace } from '../../support/cliHarness';
import { RecordingModel } from './agentHarness';

// ConfigChange and DirectoryAdded through the runtime API the extension wires (the VS Code
// file watcher and onDidChangeWorkspaceFolders only call these), with real command hooks.

let w: CliWorkspace;
beforeEach(async () => {
  w = await makeCliWorkspace();
});
afterEach(async () => {
  await w.cleanup();
});

/** A command hook that appends its input (one JSON line) to `file` in the workspace. */
const record = (file: string): string => `cat >> ${file}; echo >> ${file}`;
/** A command hook that records, then blocks with exit 2 and `why` on stderr. */
const block = (file: string, why: string): string => `cat >> ${file}; echo >> ${file}; echo '${why}' >&2; exit 2`;

async function started(hooks: Record<string, unknown>) {
  await w.settings({ hooks });
  const transcriptDir = path.join(w.hookwiseHome, 'projects', 'ws');
  const events: AgentEvent[] = [];
  const runtime = new HookwiseRuntime({ projectDir: w.ws, homeDir: w.home, model: new RecordingModel([]), transcriptDir });
  runtime.applyConfig(await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] })), { trusted: true });
  const manager = new SessionManager({
    runtime,
    projectDir: w.ws,
    homeDir: w.home,
    transcriptDir,
    settings: () => ({ permissionMode: 'default', trusted: true, emit: (e) => events.push(e) }),
  });
  await manager.ensureStarted(new AbortController().signal);
  return { manager, events };
}

describe('ConfigChange', () => {
  it('runs per changed source (matcher = source); exit 2 keeps the old configuration and says why; policy settings always apply', async () => {
    const { manager, events } = await started({
      ConfigChange: [
        {
          matcher: 'project_settings|policy_settings',
          hooks: [{ type: 'command', command: block('blocked.jsonl', 'settings are frozen during the release') }],
        },
        { matcher: 'user_settings', hooks: [{ type: 'command', command: record('user.jsonl') }] },
      ],
    });
    const projectFile = path.join(w.ws, '.claude', 'settings.json');

    const project = await manager.configChanging([{ source: 'project_settings', filePath: projectFile }]);
    const user = await manager.configChanging([{ source: 'user_settings', filePath: path.join(w.home, '.claude', 'settings.json') }]);
    const policy = await manager.configChanging([{ source: 'policy_settings' }]);

    expect(project).toEqual({ apply: false, source: 'project_settings', reason: expect.stringContaining('settings are frozen during the release') });
    expect(user).toEqual({ apply: true });
    expect(policy).toEqual({ apply: true });
    expect(w.jsonLines('blocked.jsonl')[0]).toMatchObject({ hook_event_name: 'ConfigChange', source: 'project_settings', file_path: projectFile });
    expect(w.jsonLines('user.jsonl')).toEqual([expect.objectContaining({ source: 'user_settings' })]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'systemMessage', text: expect.stringContaining('was not applied') }));
  });

  it('names the source of a changed file as Claude Code does', () => {
    const home = '/home/u';
    const project = '/work/p';
    expect(configChangeSource('/home/u/.claude/settings.json', home, [project])).toBe('user_settings');
    expect(configChangeSource('/work/p/.claude/settings.json', home, [project])).toBe('project_settings');
    expect(configChangeSource('/work/p/.claude/settings.local.json', home, [project])).toBe('local_settings');
    expect(configChangeSource('/etc/claude-code/managed-settings.json', home, [project])).toBe('policy_settings');
    expect(configChangeSource('/work/p/.claude/skills/x/SKILL.md', home, [project])).toBe('skills');
    expect(configChangeSource('/work/p/.claude/agents/a.md', home, [project])).toBeUndefined();
  });
});

describe('DirectoryAdded', () => {
  it('a workspace folder added reaches DirectoryAdded hooks with its path', async () => {
    const { manager } = await started({ DirectoryAdded: [{ hooks: [{ type: 'command', command: record('added.jsonl') }] }] });
    const folder = path.join(w.base, 'second-root');

    await manager.directoryAdded(folder);

    expect(w.jsonLines('added.jsonl')).toEqual([
      expect.objectContaining({ hook_event_name: 'DirectoryAdded', directory: folder, source: 'register_repo_root' }),
    ]);
  });
});
