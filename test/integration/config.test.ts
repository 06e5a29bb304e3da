/**
 * Hook configuration in the real extension host: live reload from disk, trust and
 * approval, "Add Hook…", and Problems-panel diagnostics. Each test builds its own
 * HookConfigService over fakes (configSupport.ts) and restores every file it touches.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { ConfigChange } from '../../src/agent/configChange';
import { isProjectSource } from '../../src/configFiles/hookSource';
import { runAddHookFlow, type AddHookUi } from '../../src/vscode/config/addHookFlow';
import { effectiveHooksReport } from '../../src/vscode/config/effectiveHooksReport';
import { APPROVED_HOOKS_KEY, type ApprovalChoice } from '../../src/vscode/config/projectHookTrust';
import { activeCommands, createHarness, waitForChange, workspaceRoot, type ServiceHarness } from './configSupport';

const FIXTURE_COMMAND_PART = 'permissionDecision';

/** Remembers files' contents and puts them back (or deletes files that did not exist). */
class FileRestorer {
  private readonly saved = new Map<string, string | undefined>();
  remember(file: string): string {
    if (!this.saved.has(file)) this.saved.set(file, existsSync(file) ? readFileSync(file, 'utf8') : undefined);
    return file;
  }
  /**
   * Puts the files back. A file that did not exist is deleted through a WorkspaceEdit: deleted
   * behind VS Code's back while open as a document, it stays as a dirty orphaned model, and VS Code
   * then refuses every later settings write to it ("the content of the file is newer").
   */
  async restore(): Promise<void> {
    for (const [file, text] of this.saved) {
      if (text !== undefined) writeFileSync(file, text);
      else if (!vscode.workspace.textDocuments.some((d) => d.uri.fsPath === file)) rmSync(file, { force: true });
      else {
        const edit = new vscode.WorkspaceEdit();
        edit.deleteFile(vscode.Uri.file(file), { ignoreIfNotExists: true });
        await vscode.workspace.applyEdit(edit);
      }
    }
    this.saved.clear();
  }
}

/** Add Hook UI for tests: every answer is pre-filled, so any dialog is a test failure. */
const noDialogs: AddHookUi = {
  pick: () => Promise.reject(new Error('the flow asked a question the test answered')),
  input: () => Promise.reject(new Error('the flow asked for input the test gave')),
  pickFolder: () => Promise.reject(new Error('the flow asked for a folder')),
};

/**
 * Hookwise's diagnostics on `uri`, one per (code, position, message): the extension's own
 * service may publish the same problems in its collection next to this test's service.
 */
function hookwiseDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  const seen = new Set<string>();
  return vscode.languages.getDiagnostics(uri).filter((d) => {
    const key = `${String(d.code)}|${d.range.start.line}:${d.range.start.character}|${d.message}`;
    if (d.source !== 'Hookwise' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

suite('Hook configuration (VS Code glue)', () => {
  let harness: ServiceHarness | undefined;
  const files = new FileRestorer();
  let settingsFile = '';
  let localFile = '';

  suiteSetup(() => {
    settingsFile = path.join(workspaceRoot(), '.claude', 'settings.json');
    localFile = path.join(workspaceRoot(), '.claude', 'settings.local.json');
  });

  teardown(async () => {
    harness?.dispose();
    harness = undefined;
    await files.restore();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('editing .claude/settings.json on disk changes the effective hooks without a reload', async () => {
    harness = createHarness({ trusted: true, approve: () => 'allow' });
    const { service } = harness;
    await service.reload();
    const first = await waitForChange(service, (c) => activeCommands(c).some((cmd) => cmd.includes(FIXTURE_COMMAND_PART)), 10_000, 'the approved fixture hook');
    assert.equal(harness.approvalRequests.length, 1, 'the fixture hook needs one approval');
    assert.ok(harness.applyCalls[0], 'apply was called');
    assert.equal(
      harness.applyCalls[0].config.hooks.some((h) => isProjectSource(h.source)),
      false,
      'the first apply (before approval) got no project hook',
    );
    assert.ok(first.applied.generation >= 2);

    const original = readFileSync(files.remember(settingsFile), 'utf8');
    const edited = original.replace(/"command": ".*"/, '"command": "echo live-edit"');
    assert.notEqual(edited, original);
    writeFileSync(settingsFile, edited);
    // No reload() call: the file watcher must pick it up (and the new command needs approval again).
    const change = await waitForChange(service, (c) => activeCommands(c).includes('echo live-edit'), 15_000, 'the edited hook to become active');
    assert.equal(
      activeCommands(change).some((cmd) => cmd.includes(FIXTURE_COMMAND_PART)),
      false,
      'the old command is gone',
    );
    assert.equal(harness.approvalRequests.length, 2, 'a changed command is approved again');
    assert.match(harness.approvalRequests[1]?.detail ?? '', /echo live-edit \(timeout 10 s\) — \.claude\/settings\.json › hooks\.PreToolUse\[0\]\.hooks\[0\]/);
    const stored = harness.state.get<string[]>(APPROVED_HOOKS_KEY) ?? [];
    assert.equal(stored.length, 1, 'approvals keep only hashes still in use');
    assert.match(effectiveHooksReport(change).join('\n'), /PreToolUse:\n {2}1\. PreToolUse \[Bash\] command: echo live-edit/);
  });

  test('ConfigChange: a settings file edited on disk is offered to the hooks first (source project_settings); a block keeps the configuration in force', async () => {
    const asked: (readonly ConfigChange[])[] = [];
    harness = createHarness({
      trusted: true,
      approve: () => 'allow',
      confirmChange: async (changes) => (asked.push(changes), { apply: false, reason: 'frozen for the release', source: 'project_settings' }),
    });
    const { service } = harness;
    await service.reload();
    await waitForChange(service, (c) => activeCommands(c).some((cmd) => cmd.includes(FIXTURE_COMMAND_PART)), 10_000, 'the approved fixture hook');
    // The approval's own follow-up reload may still be pending: count applies only once it is done.
    await service.idle();
    const applied = harness.applyCalls.length;

    const original = readFileSync(files.remember(settingsFile), 'utf8');
    writeFileSync(settingsFile, original.replace(/"command": ".*"/, '"command": "echo blocked-edit"'));
    const until = Date.now() + 15_000;
    while (asked.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await service.idle();

    assert.deepEqual(asked[0], [{ source: 'project_settings', filePath: settingsFile }]);
    assert.equal(harness.applyCalls.length, applied, 'the blocked reload was not applied');
    assert.ok(
      activeCommands(service.current!).some((cmd) => cmd.includes(FIXTURE_COMMAND_PART)),
      'the hooks in force stay',
    );
  });

  test('an untrusted workspace gives apply() no project hook and says so once', async () => {
    harness = createHarness({
      trusted: false,
      approve: () => {
        throw new Error('no approval may be asked in an untrusted workspace');
      },
    });
    const change = await harness.service.reload();
    assert.ok(change);
    assert.ok(
      change.config.hooks.some((h) => isProjectSource(h.source)),
      'the fixture has a project hook',
    );
    assert.ok(harness.applyCalls.length > 0);
    for (const call of harness.applyCalls) {
      assert.equal(call.trust.trusted, false);
      assert.deepEqual(
        call.config.hooks.filter((h) => isProjectSource(h.source)),
        [],
        'apply received a project hook',
      );
    }
    assert.deepEqual(change.applied.active, []);
    assert.deepEqual(
      change.applied.held.map((h) => h.why),
      ['untrusted'],
    );
    assert.deepEqual(harness.untrustedNotices, [1]);
    await harness.service.reload();
    assert.deepEqual(harness.untrustedNotices, [1], 'the notice is shown once per session');
    assert.equal(harness.approvalRequests.length, 0);
  });

  test('a refused approval dialog keeps project hooks off (default deny)', async () => {
    harness = createHarness({
      trusted: true,
      approve: () => {
        throw new Error('refused to show dialog in tests');
      },
    });
    await harness.service.reload();
    // Let the (refused) prompt settle.
    for (let i = 0; i < 50 && harness.declinedNotices.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(harness.approvalRequests.length, 1);
    assert.equal(harness.declinedNotices.length, 1, 'the user is told how to review later');
    for (const call of harness.applyCalls)
      assert.deepEqual(
        call.config.hooks.filter((h) => isProjectSource(h.source)),
        [],
      );
    assert.deepEqual(
      harness.service.current?.applied.held.map((h) => h.why),
      ['unapproved'],
    );
    await harness.service.reload();
    assert.equal(harness.approvalRequests.length, 1, 'a declined set is not asked again this session');
  });

  test('"Add Hook…" with given answers writes an entry the loader reads', async () => {
    harness = createHarness({ trusted: true, approve: () => 'allow' });
    files.remember(localFile);
    const log = vscode.window.createOutputChannel('Hookwise add hook test', { log: true });
    const result = await runAddHookFlow(
      { log, globalStorageUri: vscode.Uri.file(path.join(workspaceRoot(), 'no-such-dir', 'x')), ui: noDialogs },
      { event: 'PreToolUse', matcher: 'Write|Edit', type: 'command', body: 'echo added-by-test', target: 'claudeLocal' },
    );
    log.dispose();
    assert.ok(result, 'the flow wrote nothing');
    assert.equal(result.uri?.fsPath, localFile);
    assert.equal(result.jsonPath, 'hooks.PreToolUse[0].hooks[0]');
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.fsPath, localFile, 'the file is opened');
    assert.match(editor?.document.getText(editor.selection) ?? '', /"command": "echo added-by-test"/, 'the new entry is selected');

    const change = await harness.service.reload();
    const added = change?.config.hooks.find((h) => h.handler.type === 'command' && h.handler.command === 'echo added-by-test');
    assert.ok(added, 'the loader did not read the new hook');
    assert.equal(added.matcher, 'Write|Edit');
    assert.equal(added.source.kind === 'file' && added.source.displayFile, '.claude/settings.local.json');
    assert.deepEqual(change?.config.diagnostics, []);
  });

  test('broken files show up in the Problems panel, and a non-JSON file warns once', async () => {
    harness = createHarness({ trusted: true, approve: () => 'allow' });
    files.remember(localFile);
    writeFileSync(localFile, '{\n  "hooks": {\n    "PreToolUSe": []\n  }\n}\n');
    await harness.service.reload();
    const uri = vscode.Uri.file(localFile);
    const unknown = hookwiseDiagnostics(uri);
    assert.equal(unknown.length, 1, JSON.stringify(unknown));
    assert.equal(unknown[0]?.code, 'unknownEvent');
    assert.equal(unknown[0]?.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(unknown[0]?.range.start.line, 2, 'points at the key on line 3');
    assert.match(unknown[0]?.message ?? '', /did you mean "PreToolUse"/);

    writeFileSync(localFile, '// my hooks\n\nhooks: oops\n');
    await harness.service.reload();
    const broken = hookwiseDiagnostics(uri);
    // The file read cleanly before: its last good version stays in force, and the Problems panel says so too.
    assert.deepEqual(
      broken.map((d) => d.code),
      ['notJson', 'lastGoodInForce'],
    );
    assert.equal(harness.notJsonWarnings.length, 1);
    assert.match(
      harness.notJsonWarnings[0] ?? '',
      /^Hookwise: \.claude\/settings\.local\.json is not valid JSON \(line 3\)\. Its last good version stays in force until you fix it\.$/,
    );
    await harness.service.reload();
    assert.equal(harness.notJsonWarnings.length, 1, 'warned once per file');

    await files.restore();
    await harness.service.reload();
    // The extension's own service (when wired) clears its copy after its debounce: wait for both.
    for (let i = 0; i < 100 && hookwiseDiagnostics(uri).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(hookwiseDiagnostics(uri), [], 'fixed files lose their problems');
  });

  test('"Add Hook…" into workspace settings is read live from hookwise.hooks, with diagnostics on settings.json', async () => {
    harness = createHarness({ trusted: true, approve: () => 'allow' });
    const { service } = harness;
    await service.reload();
    const settingsJson = files.remember(path.join(workspaceRoot(), '.vscode', 'settings.json'));
    const log = vscode.window.createOutputChannel('Hookwise add hook test', { log: true });
    const result = await runAddHookFlow(
      { log, globalStorageUri: vscode.Uri.file(path.join(workspaceRoot(), 'no-such-dir', 'x')), ui: noDialogs },
      { event: 'Stop', type: 'prompt', body: 'Check the work is done: $ARGUMENTS', target: 'workspaceSettings', reveal: false },
    );
    log.dispose();
    assert.equal(result?.uri?.fsPath, settingsJson);
    assert.equal(result?.jsonPath, 'hookwise.hooks.Stop[0].hooks[0]');
    // No reload() call: onDidChangeConfiguration must pick it up.
    const change = await waitForChange(service, (c) => c.applied.active.some((h) => h.event === 'Stop'), 15_000, 'the workspace settings hook');
    const stop = change.applied.active.find((h) => h.event === 'Stop');
    assert.deepEqual(
      { ...stop?.source, switchId: undefined },
      { kind: 'settings', scope: 'workspace', file: settingsJson, jsonPath: 'hookwise.hooks.Stop[0].hooks[0]', switchId: undefined },
    );

    writeFileSync(settingsJson, '{\n  // typo below\n  "hookwise.hooks": { "PreToolUSe": [] }\n}\n');
    await waitForChange(service, (c) => c.config.diagnostics.some((d) => d.code === 'unknownEvent'), 15_000, 'the unknown event diagnostic');
    const problems = hookwiseDiagnostics(vscode.Uri.file(settingsJson));
    assert.deepEqual(
      problems.map((d) => [d.code, d.range.start.line]),
      [['unknownEvent', 2]],
    );
  });

  test('a configuration that fails to apply keeps the previous one in force and the reload still answers', async () => {
    let failing = false;
    harness = createHarness({ trusted: true, approve: () => 'allow', failApply: () => failing });
    const first = await harness.service.reload();
    assert.ok(first, 'the first configuration applies');
    failing = true;
    const during = await Promise.race([harness.service.reload(), new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000))]);
    if (during === 'hung') assert.fail('reload() never resolved after apply threw');
    assert.equal(during?.applied.generation, first.applied.generation, 'the previous configuration stays in force');
    failing = false;
    const after = await harness.service.reload();
    assert.ok((after?.applied.generation ?? 0) > first.applied.generation, 'the next reload applies again');
  });

  test('"Review Project Hooks" can turn approved hooks off again', async () => {
    let answer: ApprovalChoice = 'allow';
    harness = createHarness({ trusted: true, approve: () => answer });
    const { service } = harness;
    await service.reload();
    await waitForChange(service, (c) => c.applied.active.some((h) => isProjectSource(h.source)), 10_000, 'the approved fixture hook');
    answer = 'revoke';
    const asked = harness.approvalRequests.length;
    await service.reviewProjectHooks();
    assert.match(harness.approvalRequests.at(-1)?.detail ?? '', /^\[allowed\] PreToolUse \[Bash\]/);
    const after = service.current;
    assert.deepEqual(
      after?.applied.held.map((x) => x.why),
      ['unapproved'],
    );
    assert.deepEqual(harness.state.get(APPROVED_HOOKS_KEY), []);
    await service.reload();
    assert.equal(harness.approvalRequests.length, asked + 1, 'revoked hooks are not asked about again this session');
  });

  test('declares the hook configuration commands', () => {
    const pkg = vscode.extensions.getExtension('hookwise.hookwise')?.packageJSON as
      { contributes: { commands: { command: string; title: string; category?: string }[] } } | undefined;
    const titles = (pkg?.contributes.commands ?? []).map((c) => `${c.category}: ${c.title}`);
    for (const title of ['Hookwise: Add Hook…', 'Hookwise: Open Hook Settings', 'Hookwise: Show Effective Hooks', 'Hookwise: Review Project Hooks']) {
      assert.ok(titles.includes(title), `${title} is not contributed`);
    }
  });
});
