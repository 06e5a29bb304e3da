/**
 * "Your own edits don't ask you again", in the real extension host: a hook typed in this
 * window's editor and saved runs without the approval popup; a hook the agent's Write tool
 * or a git pull put in the file (both write the file on disk) still asks, also when the
 * person saves that file afterwards.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { OwnHookEdits } from '../../src/vscode/config/ownHookEdits';
import { activeCommands, createHarness, waitForChange, workspaceRoot, type ServiceHarness } from './configSupport';
import { until } from './hostWait';

/** A settings.local.json text with UserPromptSubmit hooks running these commands. */
function settingsWith(...commands: string[]): string {
  const hooks = commands.map((command) => ({ type: 'command', command }));
  return `${JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks }] } }, null, 2)}\n`;
}

/** Types `text` over the whole document in its editor, as a person would, and saves. */
async function typeAndSave(document: vscode.TextDocument, text: string): Promise<void> {
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
  assert.ok(await editor.edit((b) => b.replace(whole, text)));
  assert.ok(document.isDirty, 'the typed text is not saved yet');
  // Ctrl+S in the active editor, as a person saves.
  await vscode.commands.executeCommand('workbench.action.files.save');
  if (document.isDirty) console.log(`[own-edits] still dirty after save; on disk: ${readFileSync(document.uri.fsPath, 'utf8').length} chars`);
  await until('the document is saved', () => !document.isDirty && readFileSync(document.uri.fsPath, 'utf8') === text, 20_000);
}

suite('Own hook edits (saved in the editor)', () => {
  let harness: ServiceHarness | undefined;
  let own: OwnHookEdits | undefined;
  let localFile = '';
  let before: string | undefined;

  setup(() => {
    localFile = path.join(workspaceRoot(), '.claude', 'settings.local.json');
    before = existsSync(localFile) ? readFileSync(localFile, 'utf8') : undefined;
  });

  teardown(async () => {
    own?.dispose();
    harness?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (before === undefined) rmSync(localFile, { force: true });
    else writeFileSync(localFile, before);
  });

  test('a hook you type and save runs without asking; what the agent or a git pull wrote still asks, even after your save', async function () {
    this.timeout(90_000);
    writeFileSync(localFile, settingsWith());
    // The fixture's project hook is allowed; anything else the popup is asked about is declined.
    harness = createHarness({ trusted: true, approve: (r) => (/echo (agent|pulled|user)-/.test(r.detail) ? 'cancel' : 'allow') });
    const h = harness;
    const said: string[] = [];
    const say = (m: string): void => void said.push(m);
    own = new OwnHookEdits({
      approve: (file, keys) => (say(`approve ${file} ${keys.size}`), h.service.approveSaved(file, keys)),
      log: { info: say, trace: say } as unknown as vscode.LogOutputChannel,
    });
    await h.service.reload();
    const askedAbout = (word: string): number => h.approvalRequests.filter((r) => r.detail.includes(word)).length;

    const document = await vscode.workspace.openTextDocument(localFile);
    // An earlier test may have left this document open with older text: wait for the reload.
    await until('the document shows the file as on disk', () => document.getText() === settingsWith(), 20_000);
    await typeAndSave(document, settingsWith('echo user-typed-1'));
    await waitForChange(h.service, (c) => activeCommands(c).includes('echo user-typed-1'), 20_000, 'the typed hook to run').catch((e: unknown) => {
      say(`asked: ${h.approvalRequests.map((r) => r.detail).join(' | ')}`);
      say(`held: ${JSON.stringify(h.service.current?.applied.held.map((x) => [x.why, x.hook.source]))}`);
      throw new Error(`${String(e)}\n${said.join('\n')}`);
    });
    assert.equal(askedAbout('user-typed'), 0, 'a hook you saved is not asked about');

    // The agent's Write tool writes the file on disk; the open editor reloads it.
    writeFileSync(localFile, settingsWith('echo user-typed-1', 'echo agent-wrote'));
    await until('the editor shows the agent’s write', () => document.getText().includes('agent-wrote'), 20_000);
    await until('the agent’s hook is asked about', () => askedAbout('agent-wrote') === 1, 20_000);

    // Saving the file now (with one more hook of your own) approves yours, not the agent's.
    await typeAndSave(document, settingsWith('echo user-typed-1', 'echo agent-wrote', 'echo user-typed-2'));
    const change = await waitForChange(h.service, (c) => activeCommands(c).includes('echo user-typed-2'), 20_000, 'the second typed hook to run');
    assert.ok(!activeCommands(change).includes('echo agent-wrote'), 'the agent’s hook stays off after your save');
    assert.equal(askedAbout('user-typed'), 0);

    // A change from outside with the file closed (a git pull) asks as before.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    writeFileSync(localFile, settingsWith('echo user-typed-1', 'echo user-typed-2', 'echo pulled-in'));
    await until('the pulled hook is asked about', () => askedAbout('pulled-in') === 1, 20_000);
    assert.ok(!activeCommands(h.service.current).includes('echo pulled-in'));
  });
});
