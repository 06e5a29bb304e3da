/**
 * Other agents' hook files reload live in the real extension host, as `.claude` files do: the
 * service's file watcher (configWatcher.ts) sees each format's files created, edited and deleted,
 * in the workspace folder and in the home directory, without a reload call. Decisions are checked
 * through a real runtime holding what the service let through.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeSource } from '../../src/configFiles/hookSource';
import { handlerBody } from '../../src/hooks/config/hookConfigSchema';
import type { LoadedHook } from '../../src/hooks/config/loadedHook';
import type { HookConfigChange } from '../../src/vscode/config/hookConfigService';
import { createHarness, decideBashWithLastConfig, waitForChange, workspaceRoot, type ServiceHarness, settled } from './configSupport';

/** Top-level folders the tests create in the workspace (the fixture has none of them). */
const CREATED = ['.github', '.cursor', '.codex', '.gemini', '.windsurf', '.clinerules'];

/** Writes `relative` under `root`, creating its folders. */
function write(root: string, relative: string, text: string): string {
  const file = path.join(root, ...relative.split('/'));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** The loaded hooks of the file shown as `display` (e.g. `Cursor .cursor/hooks.json`). */
const hooksOf = (change: HookConfigChange, display: string): LoadedHook[] =>
  change.config.hooks.filter((h) => describeSource(h.source).startsWith(`${display} ›`));

/** One file of each format with one PreToolUse hook that runs `command`, as that agent writes it. */
const FILES: readonly { readonly display: string; readonly path: string; readonly text: (command: string) => string }[] = [
  {
    display: 'Copilot .github/hooks/team.json',
    path: '.github/hooks/team.json',
    text: (command) => JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: command }] } }),
  },
  {
    display: 'Copilot .github/copilot/settings.json',
    path: '.github/copilot/settings.json',
    text: (command) => JSON.stringify({ hooks: { preToolUse: [{ type: 'command', bash: command }] } }),
  },
  {
    display: 'Cursor .cursor/hooks.json',
    path: '.cursor/hooks.json',
    text: (command) => JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command }] } }),
  },
  {
    display: 'Codex .codex/hooks.json',
    path: '.codex/hooks.json',
    text: (command) => JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] } }),
  },
  {
    display: 'Codex .codex/config.toml',
    path: '.codex/config.toml',
    text: (command) =>
      ['model = "gpt-5"', '', '[[hooks.PreToolUse]]', 'matcher = "Bash"', '[[hooks.PreToolUse.hooks]]', 'type = "command"', `command = "${command}"`, ''].join(
        '\n',
      ),
  },
  {
    display: 'Gemini .gemini/settings.json',
    path: '.gemini/settings.json',
    text: (command) => JSON.stringify({ hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command }] }] } }),
  },
  {
    display: 'Windsurf .windsurf/hooks.json',
    path: '.windsurf/hooks.json',
    text: (command) => JSON.stringify({ hooks: { pre_run_command: [{ command }] } }),
  },
];

suite("other agents' hook files reload live", () => {
  let harness: ServiceHarness | undefined;
  let temp = '';

  setup(() => {
    for (const folder of CREATED) assert.equal(existsSync(path.join(workspaceRoot(), folder)), false, `the fixture folder has no ${folder}`);
    temp = mkdtempSync(path.join(os.tmpdir(), 'hookwise-format-live-'));
  });

  teardown(() => {
    harness?.dispose();
    harness = undefined;
    for (const folder of CREATED) rmSync(path.join(workspaceRoot(), folder), { recursive: true, force: true });
    rmSync(temp, { recursive: true, force: true });
  });

  /** A Bash PreToolUse through a real runtime holding exactly what the service last let through. */
  const decide = (h: ServiceHarness, command: string) => decideBashWithLastConfig(h, command, temp, 'it-format-live');

  /**
   * A service whose first load and the approval of the fixture folder's own hook are done, so no
   * reload is under way when a test writes a file: only the watcher can then pick the file up.
   */
  async function settledHarness(): Promise<ServiceHarness> {
    harness = createHarness({ trusted: true, approve: () => 'allow' });
    return settled(harness);
  }

  /** Waits, without a reload call, for the active hooks of `display` to be exactly one running `command` (none when undefined). */
  async function activeAs(h: ServiceHarness, display: string, command: string | undefined): Promise<HookConfigChange> {
    const state = (): string => {
      const c = h.service.current;
      const loaded = c ? hooksOf(c, display).map((x) => handlerBody(x.handler)) : [];
      const active = (c?.applied.active ?? []).filter((x) => describeSource(x.source).startsWith(`${display} ›`)).map((x) => handlerBody(x.handler));
      return `generation ${c?.applied.generation}: loaded ${JSON.stringify(loaded)}, active ${JSON.stringify(active)}, ${h.approvalRequests.length} approval questions, ${h.applyCalls.length} applies`;
    };
    return waitForChange(
      h.service,
      (c) => {
        const active = c.applied.active.filter((x) => describeSource(x.source).startsWith(`${display} ›`));
        return command === undefined
          ? active.length === 0 && hooksOf(c, display).length === 0
          : active.length === 1 && handlerBody(active[0]!.handler) === command;
      },
      15_000,
      `${display} ${command === undefined ? 'gone' : `running ${command}`}`,
    ).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)} (${state()})`);
    });
  }

  test('editing .cursor/hooks.json from allow to deny takes effect without a reload', async function () {
    this.timeout(60_000);
    const h = await settledHarness();
    const allow = `echo '{"permission":"allow"}'`;
    const deny = `echo '{"permission":"deny","agent_message":"denied after the edit"}'`;
    const file = write(workspaceRoot(), '.cursor/hooks.json', FILES[2]!.text(allow));
    await activeAs(h, 'Cursor .cursor/hooks.json', allow);
    assert.equal((await decide(h, 'git status')).decision, 'allow');

    writeFileSync(file, FILES[2]!.text(deny));
    await activeAs(h, 'Cursor .cursor/hooks.json', deny);
    const after = await decide(h, 'git status');
    assert.equal(after.decision, 'deny');
    assert.match(after.reason ?? '', /denied after the edit/);
  });

  test('deleting .github/hooks/guard.json stops its hook', async function () {
    this.timeout(60_000);
    const h = await settledHarness();
    const guard = `echo '{"permissionDecision":"deny","permissionDecisionReason":"guarded by Copilot"}'`;
    const file = write(workspaceRoot(), '.github/hooks/guard.json', JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: guard }] } }));
    await activeAs(h, 'Copilot .github/hooks/guard.json', guard);
    assert.deepEqual(await decide(h, 'ls'), { decision: 'deny', reason: 'guarded by Copilot' });

    rmSync(file);
    await activeAs(h, 'Copilot .github/hooks/guard.json', undefined);
    assert.notEqual((await decide(h, 'ls')).decision, 'deny');
  });

  test('each format’s project files are picked up when created, edited and deleted', async function () {
    this.timeout(120_000);
    const h = await settledHarness();
    for (const f of FILES) {
      const file = write(workspaceRoot(), f.path, f.text('echo created'));
      await activeAs(h, f.display, 'echo created');
      writeFileSync(file, f.text('echo edited'));
      await activeAs(h, f.display, 'echo edited');
      rmSync(file);
      await activeAs(h, f.display, undefined);
    }
  });

  test('a Cline hook script (.clinerules/hooks/PreToolUse) is picked up when created, edited and deleted', async function () {
    this.timeout(60_000);
    const h = await settledHarness();
    const script = (message: string): string => `#!/bin/bash\ncat > /dev/null\necho '{"cancel":true,"errorMessage":"${message}"}'\n`;
    const file = write(workspaceRoot(), '.clinerules/hooks/PreToolUse', script('first Cline policy'));
    chmodSync(file, 0o755);
    const display = 'Cline .clinerules/hooks/PreToolUse';
    const activeHash = (c: HookConfigChange): string | undefined => c.applied.active.find((x) => describeSource(x.source).startsWith(display))?.hash;
    const first = activeHash(await waitForChange(h.service, (c) => activeHash(c) !== undefined, 15_000, 'the Cline hook'));
    assert.match((await decide(h, 'ls')).reason ?? '', /first Cline policy/);

    // Its content is the hook: an edit is a new hook (approved again here), and the new text decides.
    writeFileSync(file, script('second Cline policy'));
    await waitForChange(h.service, (c) => activeHash(c) !== undefined && activeHash(c) !== first, 15_000, 'the edited Cline hook in force');
    assert.match((await decide(h, 'ls')).reason ?? '', /second Cline policy/);

    rmSync(file);
    await waitForChange(h.service, (c) => !c.config.hooks.some((x) => describeSource(x.source).startsWith(display)), 15_000, 'the Cline hook gone');
    assert.notEqual((await decide(h, 'ls')).decision, 'deny');
  });

  test('user-level files in the home directory reload live too (~/.cursor/hooks.json)', async function () {
    this.timeout(60_000);
    const h = await settledHarness();
    const file = write(h.home, '.cursor/hooks.json', FILES[2]!.text('echo user-created'));
    await activeAs(h, 'Cursor ~/.cursor/hooks.json', 'echo user-created');
    writeFileSync(file, FILES[2]!.text('echo user-edited'));
    await activeAs(h, 'Cursor ~/.cursor/hooks.json', 'echo user-edited');
    rmSync(file);
    await activeAs(h, 'Cursor ~/.cursor/hooks.json', undefined);
  });
});
