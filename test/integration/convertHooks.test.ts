/**
 * "Hookwise: Convert Hooks…" in the real extension host: a Codex Stop hook the person never
 * approved is written to .claude/settings.json through Add Hook's writer, and the converted entry
 * runs after the reload without another question, because the person confirmed exactly it; a
 * second conversion writes nothing. A Cursor file converts nothing.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { HOOK_CONFIG_COMMANDS } from '../../src/vscode/config/registerHookConfiguration';
import { runConvertHooksFlow, type ConvertHooksDeps, type ConvertHooksResult } from '../../src/vscode/config/convertHooksFlow';
import { MarkdownTabs } from '../../src/vscode/workbench/markdownTabs';
import { activeCommands, createHarness, waitForChange, workspaceRoot, type ServiceHarness } from './configSupport';

const STOP_COMMAND = 'echo converted-codex-stop';

suite('Convert Hooks', () => {
  let harness: ServiceHarness | undefined;
  let tabs: MarkdownTabs | undefined;
  let settingsFile = '';
  let settingsBefore: string | undefined;
  let log: vscode.LogOutputChannel | undefined;
  const written: string[] = [];

  setup(() => {
    settingsFile = path.join(workspaceRoot(), '.claude', 'settings.json');
    settingsBefore = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    tabs = new MarkdownTabs('hookwise-convert-test');
    log = vscode.window.createOutputChannel('Hookwise convert test', { log: true });
  });

  teardown(async () => {
    harness?.dispose();
    tabs?.dispose();
    log?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const dir of written.splice(0)) rmSync(dir, { recursive: true, force: true });
    if (settingsBefore === undefined) rmSync(settingsFile, { force: true });
    else writeFileSync(settingsFile, settingsBefore);
  });

  /** Writes `rel` (under a new top folder of the workspace, removed after the test). */
  function writeFile(rel: string, text: string): string {
    const file = path.join(workspaceRoot(), rel);
    mkdirSync(path.dirname(file), { recursive: true });
    written.push(path.join(workspaceRoot(), rel.split('/')[0] as string));
    writeFileSync(file, text);
    return file;
  }

  function deps(h: ServiceHarness): ConvertHooksDeps {
    return {
      log: log as vscode.LogOutputChannel,
      tabs: tabs as MarkdownTabs,
      approveWritten: (hook, file) => h.service.approveWritten(hook, { file }),
      reload: () => h.service.reload(),
    };
  }

  test('writes the exact Codex entry to .claude/settings.json once, and it runs without asking again', async function () {
    this.timeout(60_000);
    const codex = writeFile(
      '.codex/hooks.json',
      JSON.stringify({
        hooks: {
          Stop: [{ hooks: [{ type: 'command', command: STOP_COMMAND, timeout: 20 }] }],
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo codex-pre' }] }],
        },
      }),
    );
    // Project hooks the person did not approve are held.
    const h = (harness = createHarness({ trusted: true, approve: () => 'cancel' }));
    const first = await h.service.reload();
    assert.ok(!activeCommands(first).includes(STOP_COMMAND), 'the unapproved Codex hook does not run');

    const result = (await runConvertHooksFlow(deps(h), { file: codex, write: true, preview: false })) as ConvertHooksResult;
    assert.equal(result.added, 1);
    assert.deepEqual(
      result.conversion.notConverted.map((n) => n.label),
      ['Codex .codex/hooks.json › hooks.PreToolUse[0].hooks[0]'],
    );
    const text = readFileSync(settingsFile, 'utf8');
    assert.match(text, /"command": "echo converted-codex-stop",\s*"timeout": 20/);
    assert.match(text, /"matcher": "Bash"/, "the file's own hooks stay");

    const change = await waitForChange(
      h.service,
      (c) =>
        (c.applied.active ?? []).some(
          (hook) => hook.event === 'Stop' && hook.source.kind === 'file' && hook.source.file.endsWith(path.join('.claude', 'settings.json')),
        ),
      20_000,
      'the converted Stop hook active from .claude/settings.json',
    );
    assert.ok(activeCommands(change).includes(STOP_COMMAND));
    // Converting approves the copy the person confirmed, not the original it came from (both would run).
    assert.ok(
      !(change.applied.active ?? []).some((hook) => hook.source.kind === 'file' && hook.source.file.endsWith(path.join('.codex', 'hooks.json'))),
      'the Codex original stays unapproved',
    );

    const again = (await runConvertHooksFlow(deps(h), { file: codex, write: true, preview: false })) as ConvertHooksResult;
    assert.equal(again.added, 0);
    assert.equal(again.present, 1);
    assert.equal(readFileSync(settingsFile, 'utf8'), text);
  });

  test('the contributed command converts nothing from a Cursor file and leaves the settings alone', async function () {
    this.timeout(60_000);
    await vscode.extensions.getExtension('hookwise.hookwise')?.activate();
    assert.ok((await vscode.commands.getCommands(true)).includes(HOOK_CONFIG_COMMANDS.convertHooks));
    const cursor = writeFile(
      '.cursor/hooks.json',
      JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: './block-git.sh', failClosed: true }] } }),
    );
    const result = (await vscode.commands.executeCommand(HOOK_CONFIG_COMMANDS.convertHooks, { file: cursor, write: true, preview: false })) as
      ConvertHooksResult | undefined;
    assert.equal(result?.conversion.converted.length, 0);
    assert.match(result?.conversion.notConverted[0]?.reason ?? '', /Cursor sends its own input/);
    assert.equal(existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined, settingsBefore);
  });
});
