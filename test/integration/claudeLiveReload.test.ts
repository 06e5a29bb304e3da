/**
 * The `.claude` files reload live in the real extension host: a project agent's and a project
 * skill's frontmatter hooks, a user agent in the home directory and the project's
 * `.claude/settings.json` are picked up when created, edited and deleted, without a reload call
 * (the service's watchers, configWatcher.ts). Project hooks are approved through the harness's
 * approval answer, so "active" means what would run.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { handlerBody } from '../../src/hooks/config/hookConfigSchema';
import type { HookConfigChange } from '../../src/vscode/config/hookConfigService';
import { createHarness, waitForChange, workspaceRoot, type ServiceHarness, settled } from './configSupport';

/** Writes `relative` under `root`, creating its folders. */
function write(root: string, relative: string, text: string): string {
  const file = path.join(root, ...relative.split('/'));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** A Markdown file whose frontmatter holds one Bash PreToolUse hook running `command`. */
function frontmatterHook(name: string, command: string): string {
  return [
    '---',
    `name: ${name}`,
    `description: live reload test ${name}`,
    'hooks:',
    '  PreToolUse:',
    '    - matcher: Bash',
    '      hooks:',
    '        - type: command',
    `          command: ${command}`,
    '---',
    '',
    `The ${name} body.`,
    '',
  ].join('\n');
}

/** The commands of the hooks loaded from `file`, and of those active (approved, so they run). */
function commandsOf(change: HookConfigChange | undefined, file: string): { loaded: string[]; active: string[] } {
  const from = (hooks: readonly { source: { kind: string; file?: string }; handler: Parameters<typeof handlerBody>[0] }[]): string[] =>
    hooks.filter((h) => h.source.kind === 'file' && h.source.file === file).map((h) => handlerBody(h.handler));
  return { loaded: from(change?.config.hooks ?? []), active: from(change?.applied.active ?? []) };
}

suite('.claude agents, skills and settings reload live', () => {
  let harness: ServiceHarness | undefined;
  let settingsFile = '';
  let settingsText = '';

  setup(() => {
    for (const folder of ['agents', 'skills'])
      assert.equal(existsSync(path.join(workspaceRoot(), '.claude', folder)), false, `the fixture has no .claude/${folder}`);
    settingsFile = path.join(workspaceRoot(), '.claude', 'settings.json');
    settingsText = readFileSync(settingsFile, 'utf8');
  });

  teardown(() => {
    harness?.dispose();
    harness = undefined;
    for (const folder of ['agents', 'skills']) rmSync(path.join(workspaceRoot(), '.claude', folder), { recursive: true, force: true });
    writeFileSync(settingsFile, settingsText);
  });

  /** A service whose first load and the approval of the fixture's own hook are done: only a watcher can pick up what a test writes. */
  async function settledHarness(): Promise<ServiceHarness> {
    harness = createHarness({ trusted: true, approve: () => 'allow' });
    return settled(harness);
  }

  /** Waits, without a reload call, until `file` holds exactly `command` (none when undefined), loaded and active. */
  async function holds(h: ServiceHarness, file: string, command: string | undefined): Promise<void> {
    const expected = command === undefined ? [] : [command];
    const fits = (c: HookConfigChange | undefined): boolean => {
      const { loaded, active } = commandsOf(c, file);
      return JSON.stringify(loaded) === JSON.stringify(expected) && JSON.stringify(active) === JSON.stringify(expected);
    };
    await waitForChange(h.service, fits, 15_000, `${file} ${command === undefined ? 'without hooks' : `running ${command}`}`).catch((error: unknown) => {
      const c = h.service.current;
      const state = `generation ${c?.applied.generation}: ${JSON.stringify(commandsOf(c, file))}, ${h.approvalRequests.length} approval questions`;
      throw new Error(`${error instanceof Error ? error.message : String(error)} (${state})`);
    });
  }

  /** Creates `relative` under `root` with a hook, edits it, deletes it; checks each step reaches the service. */
  async function createEditDelete(h: ServiceHarness, root: string, relative: string, name: string): Promise<void> {
    const file = write(root, relative, frontmatterHook(name, `echo ${name}-created`));
    await holds(h, file, `echo ${name}-created`);
    writeFileSync(file, frontmatterHook(name, `echo ${name}-edited`));
    await holds(h, file, `echo ${name}-edited`);
    rmSync(file);
    await holds(h, file, undefined);
  }

  test('a project agent .claude/agents/x.md with a frontmatter hook is picked up when created, edited and deleted', async function () {
    this.timeout(60_000);
    const h = await settledHarness();
    await createEditDelete(h, workspaceRoot(), '.claude/agents/x.md', 'x');
  });

  test('a project skill .claude/skills/s/SKILL.md with a frontmatter hook is picked up when created, edited and deleted', async function () {
    this.timeout(60_000);
    const h = await settledHarness();
    await createEditDelete(h, workspaceRoot(), '.claude/skills/s/SKILL.md', 's');
    // A second skill folder made after the first: watched as well.
    await createEditDelete(h, workspaceRoot(), '.claude/skills/t/SKILL.md', 't');
  });

  test('a user agent ~/.claude/agents/y.md is picked up when created, edited and deleted', async function () {
    this.timeout(60_000);
    const h = await settledHarness();
    await createEditDelete(h, h.home, '.claude/agents/y.md', 'y');
  });

  test('a user skill ~/.claude/skills/u/SKILL.md is picked up when created, edited and deleted', async function () {
    this.timeout(60_000);
    const h = await settledHarness();
    await createEditDelete(h, h.home, '.claude/skills/u/SKILL.md', 'u');
  });

  test('an edit of .claude/settings.json takes effect without a reload', async function () {
    this.timeout(60_000);
    const h = await settledHarness();
    const settings = (command: string): string =>
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, timeout: 10 }] }] } }, null, 2);
    writeFileSync(settingsFile, settings('echo settings-edited'));
    await holds(h, settingsFile, 'echo settings-edited');
    writeFileSync(settingsFile, settings('echo settings-edited-again'));
    await holds(h, settingsFile, 'echo settings-edited-again');
  });
});
