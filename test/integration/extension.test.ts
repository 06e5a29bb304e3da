/**
 * First slice, inside the real extension host: the extension activates, its contributions
 * are declared, and "Hookwise: Open Chat" runs.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';

const EXTENSION_ID = 'hookwise.hookwise';

interface HookwiseApi {
  readonly log: vscode.LogOutputChannel;
}

suite('Hookwise extension', () => {
  test('is present and activates', async () => {
    const ext = vscode.extensions.getExtension<HookwiseApi>(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
    const api = await ext.activate();
    assert.equal(ext.isActive, true);
    assert.ok(api, 'activate() returned no API');
  });

  test('returns an API with a "Hookwise" LogOutputChannel', async () => {
    const api = await vscode.extensions.getExtension<HookwiseApi>(EXTENSION_ID)!.activate();
    assert.equal(api.log.name, 'Hookwise');
    assert.equal(typeof api.log.info, 'function');
    assert.equal(typeof api.log.logLevel, 'number', 'a LogOutputChannel has a logLevel');
    api.log.info('integration test was here');
  });

  test('declares the Chat in its own secondary side bar container, Hook Runs and MCP Servers in the Hookwise container, and the Open Chat command with its shortcut', () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: {
        viewsContainers: { activitybar: { id: string; title: string }[]; secondarySidebar: { id: string; title: string }[] };
        views: Record<string, { id: string; name: string; type?: string }[]>;
        commands: { command: string; title: string; category?: string }[];
        keybindings: { command: string; key: string; mac?: string; when?: string }[];
      };
    };
    const container = pkg.contributes.viewsContainers.activitybar.find((c) => c.id === 'hookwise');
    assert.equal(container?.title, 'Hookwise');
    const chatContainer = pkg.contributes.viewsContainers.secondarySidebar.find((c) => c.id === 'hookwise-chat');
    assert.equal(chatContainer?.title, 'Hookwise Chat');
    const list = (id: string): string[][] => (pkg.contributes.views[id] ?? []).map((v) => [v.id, v.name, v.type ?? 'tree']);
    assert.deepEqual(list('hookwise-chat'), [['hookwise.chat', 'Chat', 'webview']]);
    assert.deepEqual(list('hookwise'), [
      ['hookwise.hookRuns', 'Hook Runs', 'tree'],
      ['hookwise.mcpServers', 'MCP Servers', 'tree'],
    ]);
    const cmd = pkg.contributes.commands.find((c) => c.command === 'hookwise.openChat');
    assert.equal(`${cmd?.category}: ${cmd?.title}`, 'Hookwise: Open Chat');
    const key = pkg.contributes.keybindings.find((k) => k.command === 'hookwise.openChat');
    assert.deepEqual([key?.key, key?.mac, key?.when], ['ctrl+alt+j', 'cmd+alt+j', undefined], 'the chat can be focused from anywhere');
  });

  test('registers its commands', async () => {
    const all = await vscode.commands.getCommands(true);
    assert.ok(all.includes('hookwise.openChat'), 'hookwise.openChat is not registered');
    // VS Code adds a focus command for every contributed view.
    assert.ok(all.includes('hookwise.chat.focus'), 'the Chat view has no focus command');
    assert.ok(all.includes('hookwise.hookRuns.focus'), 'the Hook Runs view has no focus command');
  });

  test('the Hook Runs view can be shown', async () => {
    // Focusing a view opens its container and resolves its provider; it throws if the view is unknown.
    await vscode.commands.executeCommand('hookwise.hookRuns.focus');
  });

  test('"Hookwise: Open Chat" runs without error', async () => {
    await vscode.commands.executeCommand('hookwise.openChat');
    // Running it again while the view is open must be harmless too.
    await vscode.commands.executeCommand('hookwise.openChat');
  });

  test('starts a process-group watchdog as a child of the extension host (hooks die with a killed host)', async () => {
    await vscode.extensions.getExtension<HookwiseApi>(EXTENSION_ID)!.activate();
    const watchdogs = (): number[] => {
      if (process.platform !== 'linux') return [process.pid];
      return readdirSync('/proc')
        .filter((d) => /^\d+$/.test(d))
        .flatMap((d) => {
          try {
            const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
            const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
            const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
            return cmd.includes('hookwise-watchdog') && ppid === process.pid ? [Number(d)] : [];
          } catch {
            return [];
          }
        });
    };
    const until = Date.now() + 5000;
    while (watchdogs().length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.equal(watchdogs().length, 1, 'one watchdog /bin/sh under the extension host');
  });

  test('runs in a host that passed its environment on (runner contract)', () => {
    // The runner sets this on the code-server / VS Code process; seeing it here proves the
    // extension host inherits the server's environment (how the report file is found).
    assert.ok(process.env.HOOKWISE_TEST_RESULTS, 'HOOKWISE_TEST_RESULTS not inherited by the extension host');
  });

  test('opens the fixture workspace with its .claude/settings.json', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder is open');
    const uri = vscode.Uri.joinPath(folder.uri, '.claude', 'settings.json');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const settings = JSON.parse(text) as { hooks?: Record<string, unknown> };
    assert.ok(settings.hooks?.['PreToolUse'], 'the fixture has a PreToolUse hook');
  });
});
