/**
 * The PermissionProvider port in VS Code (the approval popup protocol), inside the real
 * extension host. The host runs in smoke-test-driver mode, where VS Code refuses dialogs, so
 * the modal itself is injected here and left to the e2e suite; everything around it is
 * real: queueing, buttons, abort, the settings.local.json write and the diff editor.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { until } from './hostWait';
import type { PermissionRequest } from '../../src/hooks/hookRunTypes';
import { ModalPermissionProvider, type PermissionDialog } from '../../src/vscode/permissions/modalPermissionProvider';
import { ProposedChangeDiff, PROPOSED_SCHEME } from '../../src/vscode/permissions/proposedChangeDiff';
import { ALLOW_CHANGE_COMMAND, DENY_CHANGE_COMMAND, REVIEWING_CONTEXT_KEY } from '../../src/vscode/permissions/proposedChangeReview';
import type { PermissionRulePick } from '../../src/presentation/permissionText';

const request: PermissionRequest = {
  agentId: 'main',
  parentAgentId: null,
  agentType: 'main',
  sessionId: 's',
  event: 'PreToolUse',
  toolName: 'Bash',
  toolInput: { command: 'npm test' },
  reason: 'Bash needs your approval',
  kind: 'rule',
  askedBy: [],
  suggestedRule: 'Bash(npm test:*)',
};

interface Shown {
  readonly message: string;
  readonly detail: string | undefined;
  readonly modal: boolean | undefined;
  readonly buttons: string[];
  /** The buttons VS Code would use as the popup's close (its Cancel / Escape). */
  readonly closeButtons: string[];
  answer(choice: string | undefined): void;
}

/** A dialog the test answers by hand; records what each popup showed. */
function scriptedDialog(): { dialog: PermissionDialog; shown: Shown[]; next(): Promise<Shown> } {
  const shown: Shown[] = [];
  let wake: (() => void) | undefined;
  const dialog: PermissionDialog = (message, options, ...items) =>
    new Promise((resolve) => {
      shown.push({
        message,
        detail: options.detail,
        modal: options.modal,
        buttons: items.map((i) => i.title),
        closeButtons: items.filter((i) => i.isCloseAffordance).map((i) => i.title),
        answer: (choice) => resolve(items.find((i) => i.title === choice)),
      });
      wake?.();
    });
  const next = async (): Promise<Shown> => {
    const count = shown.length;
    while (shown.length === count) await new Promise<void>((r) => (wake = r));
    return shown[shown.length - 1] as Shown;
  };
  return { dialog, shown, next };
}

suite('Approval popup (PermissionProvider)', () => {
  let tmp: string;

  setup(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-perm-'));
  });

  teardown(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('a rule ask offers four buttons; Always Allow writes the rule to settings.local.json', async () => {
    const { dialog, next } = scriptedDialog();
    const file = vscode.Uri.file(path.join(tmp, '.claude', 'settings.local.json'));
    const provider = new ModalPermissionProvider({ dialog, showProposedChange: async () => undefined, localSettingsFile: () => file });
    const answer = provider.requestPermission(request, new AbortController().signal);
    const popup = await next();
    assert.equal(popup.message, 'Allow Bash for the main agent?');
    assert.equal(popup.modal, true);
    assert.deepEqual(popup.buttons, ['Allow', 'Allow for This Session', 'Always Allow', 'Deny']);
    assert.deepEqual(popup.closeButtons, ['Deny'], 'Deny is the close button: VS Code adds no Cancel beside it');
    assert.match(popup.detail ?? '', /\$ npm test/);
    popup.answer('Always Allow');
    assert.deepEqual(await answer, { decision: 'allow', scope: 'always', decidedBy: 'user', reason: 'always allowed: Bash(npm test:*)' });
    assert.deepEqual(JSON.parse(fs.readFileSync(file.fsPath, 'utf8')), { permissions: { allow: ['Bash(npm test:*)'] } });
  });

  test('Always Allow never writes through a link: a settings.local.json or .claude symlinked to the user’s global settings is refused, the call still allowed once', async () => {
    const global = path.join(tmp, 'home', '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(global), { recursive: true });
    fs.writeFileSync(global, '{"permissions":{"deny":["Bash(rm:*)"]}}');
    const ws = path.join(tmp, 'ws');
    const linkedFile = path.join(ws, '.claude', 'settings.local.json');
    fs.mkdirSync(path.dirname(linkedFile), { recursive: true });
    fs.symlinkSync(global, linkedFile);
    const ws2 = path.join(tmp, 'ws2');
    fs.mkdirSync(ws2);
    fs.symlinkSync(path.dirname(global), path.join(ws2, '.claude'));
    for (const file of [linkedFile, path.join(ws2, '.claude', 'settings.local.json')]) {
      const { dialog, next } = scriptedDialog();
      const provider = new ModalPermissionProvider({ dialog, showProposedChange: async () => undefined, localSettingsFile: () => vscode.Uri.file(file) });
      const answer = provider.requestPermission(request, new AbortController().signal);
      (await next()).answer('Always Allow');
      assert.deepEqual(await answer, { decision: 'allow', scope: 'always', decidedBy: 'user', reason: 'always allowed: Bash(npm test:*)' });
      assert.equal(fs.readFileSync(global, 'utf8'), '{"permissions":{"deny":["Bash(rm:*)"]}}', `the rule went through ${file}`);
    }
    assert.deepEqual(fs.readdirSync(path.dirname(global)), ['settings.json']);
  });

  test('a hook ask offers Allow / Deny and names the hook; closing the popup is deny', async () => {
    const { dialog, next } = scriptedDialog();
    const provider = new ModalPermissionProvider({ dialog, showProposedChange: async () => undefined, localSettingsFile: () => undefined });
    const hookAsk: PermissionRequest = {
      ...request,
      kind: 'hook',
      reason: 'tests touch the network',
      askedBy: [
        {
          hookLabel: './ask.sh',
          source: {
            kind: 'file',
            scope: 'project',
            file: '/ws/.claude/settings.json',
            displayFile: '.claude/settings.json',
            jsonPath: 'hooks.PreToolUse[0].hooks[0]',
          },
        },
      ],
    };
    const answer = provider.requestPermission(hookAsk, new AbortController().signal);
    const popup = await next();
    assert.deepEqual(popup.buttons, ['Allow', 'Deny']);
    assert.match(popup.detail ?? '', /Asked by hook: \.\/ask\.sh\n {2}\.claude\/settings\.json › hooks\.PreToolUse\[0\]\.hooks\[0\]/);
    popup.answer(undefined);
    assert.equal((await answer).decision, 'deny');
  });

  test('concurrent requests show one at a time and report waiting', async () => {
    const { dialog, shown, next } = scriptedDialog();
    const waiting: boolean[] = [];
    const provider = new ModalPermissionProvider({
      dialog,
      showProposedChange: async () => undefined,
      localSettingsFile: () => undefined,
      onWaitingChanged: (w) => waiting.push(w),
    });
    const sub = { ...request, agentId: 'sub-1', parentAgentId: 'main', agentType: 'Explore' };
    const first = provider.requestPermission(request, new AbortController().signal);
    const second = provider.requestPermission(sub, new AbortController().signal);
    const popup1 = await next();
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(shown.length, 1, 'the second popup waits for the first');
    assert.equal(provider.pending, 2);
    popup1.answer('Deny');
    const popup2 = await next();
    assert.equal(popup2.message, 'Allow Bash for subagent Explore (sub-1)?');
    popup2.answer('Allow for This Session');
    assert.equal((await first).decision, 'deny');
    assert.deepEqual(await second, { decision: 'allow', scope: 'session', decidedBy: 'user', reason: 'allowed for this session: Bash(npm test:*)' });
    assert.deepEqual(waiting, [true, false]);
  });

  test('an abort settles the open and the queued requests as deny', async () => {
    const { dialog, next } = scriptedDialog();
    const provider = new ModalPermissionProvider({ dialog, showProposedChange: async () => undefined, localSettingsFile: () => undefined });
    const stop = new AbortController();
    const open = provider.requestPermission(request, stop.signal);
    const queued = provider.requestPermission(request, stop.signal);
    await next();
    stop.abort();
    assert.equal((await open).decision, 'deny');
    assert.equal((await queued).decision, 'deny');
    assert.equal(provider.pending, 0);
  });

  test('a Write opens its proposed content in a diff beside, closed after the answer', async () => {
    const registration = ProposedChangeDiff.register();
    const { dialog, next } = scriptedDialog();
    const target = path.join(tmp, 'hello.txt');
    fs.writeFileSync(target, 'old text\n');
    const provider = new ModalPermissionProvider({ dialog, localSettingsFile: () => undefined });
    const diffTabs = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSED_SCHEME);
    try {
      const answer = provider.requestPermission(
        { ...request, toolName: 'Write', toolInput: { file_path: target, content: 'new text\n' } },
        new AbortController().signal,
      );
      const popup = await next();
      const tabs = diffTabs();
      assert.equal(tabs.length, 1, 'one proposed-change diff is open');
      const input = tabs[0]?.input as vscode.TabInputTextDiff;
      assert.equal(input.original.fsPath, target);
      assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'new text\n');
      popup.answer('Allow');
      assert.equal((await answer).decision, 'allow');
      await until('the diff is closed after the answer', () => diffTabs().length === 0);
    } finally {
      registration.dispose();
    }
  });

  const proposedDiffTabs = (): vscode.Tab[] =>
    vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PROPOSED_SCHEME);

  test('every popup shows at most four choices, none twice, and its close button is Deny', async function () {
    // Three of these open a diff editor, slow on a loaded host.
    this.timeout(90_000);
    const registration = ProposedChangeDiff.register();
    const target = path.join(tmp, 'src', 'a.ts');
    fs.mkdirSync(path.dirname(target));
    fs.writeFileSync(target, 'old\n');
    const write = { ...request, toolName: 'Write', toolInput: { file_path: target, content: 'new\n' }, suggestedRule: 'Edit(src/a.ts)' };
    const asks: [string, PermissionRequest, string[]][] = [
      ['Bash rule ask', request, ['Allow', 'Allow for This Session', 'Always Allow', 'Deny']],
      ['Write rule ask', write, ['Allow', 'Review Diff…', 'Always Allow…', 'Deny']],
      ['Write hook ask', { ...write, kind: 'hook' }, ['Allow', 'Review Diff…', 'Deny']],
      ['protected write', { ...write, suggestedRule: undefined }, ['Allow', 'Review Diff…', 'Deny']],
    ];
    try {
      for (const [name, ask, expected] of asks) {
        const { dialog, next } = scriptedDialog();
        const file = vscode.Uri.file(path.join(tmp, '.claude', 'settings.local.json'));
        const provider = new ModalPermissionProvider({ dialog, localSettingsFile: () => file });
        const answer = provider.requestPermission(ask, new AbortController().signal);
        const popup = await next();
        assert.deepEqual(popup.buttons, expected, name);
        assert.equal(new Set(popup.buttons).size, popup.buttons.length, `${name}: no button twice`);
        assert.deepEqual(popup.closeButtons, ['Deny'], `${name}: closing the popup is Deny, with no separate Cancel`);
        // What VS Code answers when the popup is closed (Escape): its close button.
        popup.answer('Deny');
        assert.deepEqual(await answer, { decision: 'deny', decidedBy: 'user', reason: 'denied by the user' }, name);
      }
      await until('the proposed diffs are closed', () => proposedDiffTabs().length === 0);
    } finally {
      registration.dispose();
    }
  });

  test('Review Diff… closes the popup and the answer comes from the diff’s title bar; closing the diff unanswered asks again', async function () {
    // Opening diff editors is slow on a loaded host; every step below waits for a condition.
    this.timeout(90_000);
    // The title bar's commands are the extension's own registration.
    await vscode.extensions.getExtension('hookwise.hookwise')?.activate();
    const pkg = vscode.extensions.getExtension('hookwise.hookwise')?.packageJSON as {
      contributes: { menus: Record<string, { command: string; when?: string }[]> };
    };
    for (const command of [ALLOW_CHANGE_COMMAND, DENY_CHANGE_COMMAND]) {
      const entry = pkg.contributes.menus['editor/title']?.find((m) => m.command === command);
      assert.equal(entry?.when, `${REVIEWING_CONTEXT_KEY} && resourceScheme == '${PROPOSED_SCHEME}'`, `${command} is in the title bar of a diff under review`);
    }
    const registration = ProposedChangeDiff.register();
    const target = path.join(tmp, 'hello.txt');
    fs.writeFileSync(target, 'old text\n');
    const write = { ...request, toolName: 'Write', toolInput: { file_path: target, content: 'new text\n' }, suggestedRule: 'Edit(hello.txt)' };
    const { dialog, next } = scriptedDialog();
    const provider = new ModalPermissionProvider({ dialog, localSettingsFile: () => undefined });
    const modified = (): vscode.Uri => (proposedDiffTabs()[0]?.input as vscode.TabInputTextDiff).modified;
    try {
      const allowed = provider.requestPermission(write, new AbortController().signal);
      (await next()).answer('Review Diff…');
      await until('the diff under review is the active tab', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff);
      assert.equal(proposedDiffTabs().length, 1);
      // The title bar's Allow, as VS Code runs it: with the diff editor's resource.
      assert.equal(await vscode.commands.executeCommand(ALLOW_CHANGE_COMMAND, modified()), true);
      assert.deepEqual(await allowed, { decision: 'allow', scope: 'once', decidedBy: 'user', reason: 'allowed in the diff' });
      assert.equal(provider.pending, 0);
      await until('the diff is closed after the answer', () => proposedDiffTabs().length === 0);

      const denied = provider.requestPermission(write, new AbortController().signal);
      (await next()).answer('Review Diff…');
      await until('the diff under review is open', () => proposedDiffTabs().length === 1);
      const asked = next();
      await vscode.window.tabGroups.close(proposedDiffTabs(), true);
      const again = await asked;
      assert.equal(again.message, 'Allow Write for the main agent?', 'closing the diff unanswered brings the question back');
      assert.equal(proposedDiffTabs().length, 1, 'with the diff beside it again');
      again.answer('Review Diff…');
      await until('the diff under review is the active tab', () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff);
      assert.equal(await vscode.commands.executeCommand(DENY_CHANGE_COMMAND, modified()), true);
      assert.deepEqual(await denied, { decision: 'deny', decidedBy: 'user', reason: 'denied in the diff' });
      assert.equal(fs.readFileSync(target, 'utf8'), 'old text\n');
    } finally {
      registration.dispose();
    }
  });

  test('Always Allow… for a file write offers Edit(src/**) beside the exact file, and saves the one chosen', async () => {
    const { dialog, next } = scriptedDialog();
    const file = vscode.Uri.file(path.join(tmp, '.claude', 'settings.local.json'));
    const offered: PermissionRulePick[][] = [];
    const provider = new ModalPermissionProvider({
      dialog,
      showProposedChange: async () => undefined,
      localSettingsFile: () => file,
      pickRule: async (picks) => (offered.push([...picks]), picks[0]),
    });
    const edit = {
      ...request,
      toolName: 'Edit',
      toolInput: { file_path: 'src/lib/a.ts', old_string: 'a', new_string: 'b' },
      suggestedRule: 'Edit(src/lib/a.ts)',
    };
    const answer = provider.requestPermission(edit, new AbortController().signal);
    const popup = await next();
    assert.deepEqual(popup.buttons, ['Allow', 'Always Allow…', 'Deny']);
    assert.match(popup.detail ?? '', /"Always Allow…" offers Edit\(src\/\*\*\) or Edit\(src\/lib\/a\.ts\)/);
    popup.answer('Always Allow…');
    assert.deepEqual(await answer, { decision: 'allow', scope: 'always', rule: 'Edit(src/**)', decidedBy: 'user', reason: 'always allowed: Edit(src/**)' });
    assert.deepEqual(
      offered[0]?.map((p) => p.label),
      ['Always allow Edit(src/**)', 'Always allow Edit(src/lib/a.ts)', 'Allow Edit(src/**) for this session', 'Allow Edit(src/lib/a.ts) for this session'],
    );
    assert.deepEqual(JSON.parse(fs.readFileSync(file.fsPath, 'utf8')), { permissions: { allow: ['Edit(src/**)'] } });
  });
});
