/**
 * The hook configuration commands as registered by `registerHookConfiguration`. Until the
 * extension wires the factory the test registers it over a stand-in context; once wired it
 * drives the extension's own registration (registering twice would throw).
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AppliedConfig } from '../../src/runtime/hookwiseRuntime';
import { HOOK_CONFIG_COMMANDS, registerHookConfiguration } from '../../src/vscode/config/registerHookConfiguration';
import { MemoryMemento } from '../support/memoryMemento';
import { workspaceRoot } from './configSupport';

/** A LogOutputChannel stand-in that keeps its lines. */
function recordingLog(lines: string[]): vscode.LogOutputChannel {
  const push = (message: string | Error): number => lines.push(String(message));
  return {
    name: 'Hookwise (test)',
    logLevel: vscode.LogLevel.Info,
    onDidChangeLogLevel: new vscode.EventEmitter<vscode.LogLevel>().event,
    trace: push,
    debug: push,
    info: push,
    warn: push,
    error: push,
    append: () => {},
    appendLine: push,
    replace: () => {},
    clear: () => {},
    show: () => {},
    hide: () => {},
    dispose: () => {},
  } as vscode.LogOutputChannel;
}

suite('Hook configuration commands', () => {
  const subscriptions: vscode.Disposable[] = [];
  const lines: string[] = [];
  let ownRegistration = false;
  let localFile = '';
  let localBefore: string | undefined;

  suiteSetup(async () => {
    localFile = path.join(workspaceRoot(), '.claude', 'settings.local.json');
    localBefore = existsSync(localFile) ? readFileSync(localFile, 'utf8') : undefined;
    await vscode.extensions.getExtension('hookwise.hookwise')?.activate();
    const registered = await vscode.commands.getCommands(true);
    if (registered.includes(HOOK_CONFIG_COMMANDS.addHook)) return;
    ownRegistration = true;
    const context = {
      subscriptions,
      workspaceState: new MemoryMemento(),
      globalStorageUri: vscode.Uri.file(path.join(workspaceRoot(), 'no-such-dir', 'x')),
    } as unknown as vscode.ExtensionContext;
    let generation = 0;
    registerHookConfiguration(context, {
      log: recordingLog(lines),
      apply: (config): AppliedConfig => ({ generation: ++generation, active: config.hooks, held: [], problems: [] }),
    });
  });

  suiteTeardown(async () => {
    for (const d of subscriptions.splice(0)) d.dispose();
    if (localBefore === undefined) rmSync(localFile, { force: true });
    else writeFileSync(localFile, localBefore);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('all four commands are registered', async () => {
    const registered = await vscode.commands.getCommands(true);
    for (const id of Object.values(HOOK_CONFIG_COMMANDS)) assert.ok(registered.includes(id), `${id} is not registered`);
  });

  test('"Add Hook…" takes answers as its argument and approves the hook it wrote', async () => {
    const result = (await vscode.commands.executeCommand(HOOK_CONFIG_COMMANDS.addHook, {
      event: 'UserPromptSubmit',
      type: 'command',
      body: 'echo from-command',
      target: 'claudeLocal',
      reveal: false,
    })) as { uri?: vscode.Uri; jsonPath: string } | undefined;
    assert.equal(result?.uri?.fsPath, localFile);
    assert.equal(result?.jsonPath, 'hooks.UserPromptSubmit[0].hooks[0]');
    assert.match(readFileSync(localFile, 'utf8'), /"command": "echo from-command"/);
  });

  test('"Show Effective Hooks" lists the active hooks with their source', async function () {
    if (!ownRegistration) this.skip(); // the extension's log is not readable from here
    await vscode.commands.executeCommand(HOOK_CONFIG_COMMANDS.showEffectiveHooks);
    const report = lines.filter((l) => l.startsWith('Effective hooks')).at(-1) ?? '';
    assert.match(
      report,
      /UserPromptSubmit:\n {2}1\. UserPromptSubmit command: echo from-command — \.claude\/settings\.local\.json › hooks\.UserPromptSubmit\[0\]\.hooks\[0\]/,
    );
    // The fixture's project hook was never approved in this stand-in workspace state (the dialog is refused in tests).
    assert.match(report, /Held \(not run\):\n {2}- PreToolUse \[Bash\] command: .* — not approved/);
  });
});
