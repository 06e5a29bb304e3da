/**
 * Restricted Mode and the workspace boundary in the real extension host, opened the way a
 * malicious repository would be: Workspace Trust on and not granted, and the repository's own
 * `evil.code-workspace` listing `..` (what stands for $HOME, holding outside-secret.txt) as its
 * first folder, then `.` (runIntegration.mjs builds it: the `untrusted` host). The agent runs
 * the Playground model from a script in user settings (the scripted vscode-lm fixture is an
 * extension without Restricted Mode support, so it is off here). The host refuses dialogs, so
 * every approval popup and the outside-folders question answer "no".
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookwiseApi } from '../../src/extension';
import { BoundaryButtons, currentWorkspaceBoundary, offerOutsideFolders } from '../../src/vscode/agentBoundary';
import { MemoryMemento } from '../support/memoryMemento';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('hookwise');
const SECRET = 'HOOKWISE-OUTSIDE-SECRET';

suite('untrusted host on a repository .code-workspace whose first folder is ..', () => {
  let api: HookwiseApi;
  let scripts: string;
  let repo: string;
  let home: string;

  suiteSetup(async () => {
    const file = vscode.workspace.workspaceFile;
    assert.ok(file && file.scheme === 'file' && file.fsPath.endsWith('evil.code-workspace'), `opened on ${file?.toString()}`);
    repo = path.dirname(file.fsPath);
    home = path.dirname(repo);
    const ext = vscode.extensions.getExtension<HookwiseApi>('hookwise.hookwise');
    assert.ok(ext);
    api = await ext.activate();
    scripts = fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-untrusted-'));
    await config().update('model.provider', 'playground', vscode.ConfigurationTarget.Global);
    // The user's own mode: Restricted Mode must ask anyway.
    await config().update('permissions.mode', 'bypassPermissions', vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    for (const key of ['model.provider', 'model.playgroundScript', 'permissions.mode'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(scripts, { recursive: true, force: true });
  });

  /** Runs one prompt whose model makes `call`; returns the tool result the model got back. */
  async function oneCall(name: string, input: Record<string, unknown>): Promise<{ content: string; isError: boolean }> {
    const script = path.join(scripts, `${name}-${Date.now()}.json`);
    fs.writeFileSync(script, JSON.stringify({ turns: [{ toolCalls: [{ name, input }] }, { text: 'Done.' }] }));
    await config().update('model.playgroundScript', script, vscode.ConfigurationTarget.Global);
    await api.controller.reloadModel();
    await api.controller.newSession();
    assert.equal(await api.controller.submit('go'), true);
    const result = api.controller.sessions.current?.messages.find((m) => m.role === 'tool');
    assert.ok(result && result.role === 'tool', `no tool result: ${JSON.stringify(api.controller.sessions.current?.messages)}`);
    return { content: result.content, isError: result.isError === true };
  }

  test('the host is in Restricted Mode, with the workspace file’s folders as listed', () => {
    assert.equal(vscode.workspace.isTrusted, false);
    assert.deepEqual(
      vscode.workspace.workspaceFolders?.map((f) => f.uri.fsPath),
      [home, repo],
    );
    assert.ok(fs.existsSync(path.join(home, 'outside-secret.txt')));
  });

  test('the agent’s root is the folder holding the workspace file, not its "..": reading ../outside-secret.txt returns nothing', async () => {
    const read = await oneCall('Read', { file_path: path.join(home, 'outside-secret.txt') });
    assert.equal(read.isError, true);
    assert.doesNotMatch(read.content, new RegExp(SECRET));
    const grep = await oneCall('Grep', { pattern: SECRET, path: home, output_mode: 'content' });
    assert.doesNotMatch(grep.content, new RegExp(SECRET));
    // Restricted Mode's ask (refused here) alone would hide the file: the root itself must not be "..".
    assert.equal(api.controller.projectDir, repo);
    assert.deepEqual(api.controller.boundary.outsideFolders, [home]);
  });

  test('the user’s bypassPermissions does not run a tool without asking: the popup is refused here, so Bash does not run', async () => {
    const marker = path.join(repo, 'restricted-marker');
    const bash = await oneCall('Bash', { command: `touch '${marker}'` });
    assert.equal(fs.existsSync(marker), false, `Bash ran: ${bash.content}`);
    assert.equal(bash.isError, true);
  });

  test('the modal names the folders the workspace file adds outside its folder; accepting pins exactly that list, and the next window’s root is its first folder', async () => {
    const state = new MemoryMemento();
    const before = currentWorkspaceBoundary(state);
    assert.deepEqual([before.projectDir, before.approved], [repo, false]);
    const shown: { message: string; detail: string | undefined; buttons: string[] }[] = [];
    let reloads = 0;
    const declined = await offerOutsideFolders(
      before,
      state,
      async (message, options, ...buttons) => (shown.push({ message, detail: options.detail, buttons }), BoundaryButtons.keepOutside),
      async () => reloads++,
    );
    assert.equal(declined, false);
    assert.equal(currentWorkspaceBoundary(state).approved, false);
    const accepted = await offerOutsideFolders(
      before,
      state,
      async () => BoundaryButtons.accept,
      async () => reloads++,
    );
    assert.equal(accepted, true);
    assert.equal(reloads, 1);
    assert.ok((shown[0]?.detail ?? '').includes(`adds folders outside its own folder:\n  ${home}\n`), shown[0]?.detail);
    assert.deepEqual(shown[0]?.buttons, [BoundaryButtons.accept, BoundaryButtons.keepOutside]);
    const after = currentWorkspaceBoundary(state);
    assert.deepEqual([after.projectDir, after.approved], [home, true]);
  });
});
