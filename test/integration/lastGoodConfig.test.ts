/**
 * In the real extension host: a broken `.claude/settings.json` never silently
 * drops its policy. The last good version stays in force (the `rm -rf` guard still blocks through
 * the real runner, approved by its hash as before), the status bar and the chat say so with a link
 * to the error, the copy survives a window reload (workspace state), and with no good version
 * known the notice says loudly that the file's hooks are not in force.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import { handlerBody } from '../../src/hooks/config/hookConfigSchema';
import type { ModelClient } from '../../src/model/modelClient';
import type { ToWebviewMessage } from '../../src/shared/webviewProtocol';
import { ChatViewProvider } from '../../src/vscode/chat/chatViewProvider';
import { BrokenConfigNotice } from '../../src/vscode/config/brokenConfigNotice';
import type { HookConfigChange } from '../../src/vscode/config/hookConfigService';
import { createHarness, workspaceRoot, type ServiceHarness } from './configSupport';
import { bashHookInput, until } from './hostWait';

const NO_MODEL: ModelClient = {
  label: 'no model',
  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('no model in this test');
  },
};

const GUARD = `grep -q 'rm -rf' && { echo 'rm -rf guard: blocked' >&2; exit 2; }; exit 0`;
const GOOD = `${JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: GUARD }] }] } }, null, 2)}\n`;
/** The good file with one line deleted (the `"PreToolUse": [` line): a syntax error. */
const BROKEN = GOOD.split('\n')
  .filter((line) => !line.includes('"PreToolUse"'))
  .join('\n');
const NOTICE = 'project hooks from `.claude/settings.json`: last good version in force, the file has an error';

/** A chat view whose webview records what the extension posts (the chat UI itself is the e2e suite's). */
function chatWithView(): { chat: ChatViewProvider; posted: ToWebviewMessage[]; send: (m: unknown) => void } {
  const fromWebview = new vscode.EventEmitter<unknown>();
  const posted: ToWebviewMessage[] = [];
  const webview = {
    options: {} as vscode.WebviewOptions,
    html: '',
    cspSource: 'vscode-webview://fake',
    asWebviewUri: (uri: vscode.Uri) => uri,
    onDidReceiveMessage: fromWebview.event,
    postMessage: async (message: ToWebviewMessage) => (posted.push(message), true),
  };
  const chat = new ChatViewProvider(vscode.Uri.file('/ext'));
  chat.resolveWebviewView({
    webview,
    onDidDispose: new vscode.EventEmitter<void>().event,
    visible: true,
    show: () => undefined,
  } as unknown as vscode.WebviewView);
  fromWebview.fire({ type: 'ready' });
  return { chat, posted, send: (m) => fromWebview.fire(m) };
}

/** The text of the chat's current notice ('' when none). */
function chatNotice(posted: readonly ToWebviewMessage[]): { text: string; id?: string } {
  for (const m of [...posted].reverse()) {
    if (m.type === 'notice') return m.notice ? { text: m.notice.text, id: m.notice.id } : { text: '' };
    if (m.type === 'init') return m.notice ? { text: m.notice.text, id: m.notice.id } : { text: '' };
  }
  return { text: '' };
}

suite('A broken config file keeps its last good version in force', () => {
  const harnesses: ServiceHarness[] = [];
  const disposables: vscode.Disposable[] = [];
  let temp = '';
  const file = (): string => path.join(workspaceRoot(), '.claude', 'settings.json');
  let original: string | undefined;

  setup(() => {
    original = existsSync(file()) ? readFileSync(file(), 'utf8') : undefined;
    temp = mkdtempSync(path.join(os.tmpdir(), 'hookwise-lastgood-'));
  });

  teardown(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    for (const h of harnesses.splice(0)) h.dispose();
    if (original !== undefined) writeFileSync(file(), original);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(temp, { recursive: true, force: true });
  });

  const harness = (state?: ServiceHarness['state']): ServiceHarness => {
    const h = createHarness({ trusted: true, approve: () => 'allow', ...(state ? { state } : {}) });
    harnesses.push(h);
    return h;
  };

  async function decide(h: ServiceHarness, change: HookConfigChange | undefined, command: string): Promise<{ decision?: string; reason?: string }> {
    assert.ok(change, 'a configuration loaded');
    const runtime = new HookwiseRuntime({ projectDir: workspaceRoot(), homeDir: h.home, model: NO_MODEL, transcriptDir: temp });
    try {
      // What the service let through: project hooks only when trusted and approved by hash.
      runtime.applyConfig({ ...change.config, hooks: [...change.applied.active] }, { trusted: true, isApproved: () => true });
      const result = await runtime.runner.run('PreToolUse', bashHookInput('it-lastgood', command, 'toolu_lastgood'), { cwd: workspaceRoot() });
      return { ...(result.decision !== undefined ? { decision: result.decision } : {}), ...(result.reason !== undefined ? { reason: result.reason } : {}) };
    } finally {
      await runtime.dispose();
    }
  }

  test('one deleted line: the last good hooks stay in force, approved by their hash; the status bar and the chat say so and link to the error', async () => {
    const h = harness();
    const { chat, posted, send } = chatWithView();
    const notice = new BrokenConfigNotice(h.service.onDidChange, chat);
    disposables.push(notice, chat);
    writeFileSync(file(), GOOD);
    await h.service.reload();
    await until('the guard approved and active', () => h.service.current?.applied.active.some((x) => handlerBody(x.handler) === GUARD) === true);
    const good = h.service.current;
    assert.equal((await decide(h, good, 'rm -rf build')).decision, 'deny');
    const guardHash = good?.applied.active.find((x) => handlerBody(x.handler) === GUARD)?.hash;
    const asked = h.approvalRequests.length;
    assert.equal(notice.text, '', 'nothing to say while the file is good');

    writeFileSync(file(), BROKEN);
    const broken = await h.service.reload();
    assert.deepEqual(
      broken?.config.brokenFiles?.map((b) => [b.displayFile, b.inForce, b.project]),
      [['.claude/settings.json', 'lastGood', true]],
    );
    const verdict = await decide(h, broken, 'rm -rf build');
    assert.equal(verdict.decision, 'deny', `the last good guard still blocks: ${JSON.stringify(verdict)}`);
    assert.match(verdict.reason ?? '', /rm -rf guard: blocked/);
    assert.ok(
      broken?.applied.active.some((x) => x.hash === guardHash),
      'the cached hook is the approved one (same hash)',
    );
    assert.equal(h.approvalRequests.length, asked, 'no new approval asked for the same hook');
    assert.ok(
      broken?.config.diagnostics.some((d) => d.code === 'syntaxError' || d.code === 'notJson'),
      "the file's own error is still reported",
    );

    assert.match(notice.text, /Hookwise: project hooks from \.claude\/settings\.json: last good version in force, the file has an error/);
    assert.ok(notice.tooltip.includes(NOTICE));
    assert.equal(notice.link?.command, 'vscode.open', 'the status bar item links to the error');
    assert.equal((notice.link?.arguments?.[0] as vscode.Uri | undefined)?.fsPath, file());
    await until('the chat notice', () => chatNotice(posted).text.includes(NOTICE));
    const { id } = chatNotice(posted);
    send({ type: 'noticeAction', noticeId: id, actionId: 'show' });
    await until('the broken file open at its error', () => vscode.window.activeTextEditor?.document.uri.fsPath === file());
    const line = broken?.config.brokenFiles?.[0]?.error.line ?? 1;
    assert.equal(vscode.window.activeTextEditor?.selection.active.line, line - 1);

    writeFileSync(file(), GOOD);
    const fixed = await h.service.reload();
    assert.equal(fixed?.config.brokenFiles, undefined);
    assert.equal(notice.text, '', 'the status bar item goes once the file is fixed');
  });

  test('after a window reload the last good copy (workspace state) is still in force; with no copy the notice says the hooks are not in force', async () => {
    const first = harness();
    writeFileSync(file(), GOOD);
    await first.service.reload();
    await until('the guard approved and active', () => first.service.current?.applied.active.some((x) => handlerBody(x.handler) === GUARD) === true);
    writeFileSync(file(), BROKEN);
    // A reload of the window: a new service over the same workspace state.
    const reloaded = harness(first.state);
    const change = await reloaded.service.reload();
    assert.equal(change?.config.brokenFiles?.[0]?.inForce, 'lastGood');
    assert.equal((await decide(reloaded, change, 'rm -rf build')).decision, 'deny');

    // A fresh workspace state: no good version known.
    const fresh = harness();
    const { chat, posted } = chatWithView();
    const notice = new BrokenConfigNotice(fresh.service.onDidChange, chat);
    disposables.push(notice, chat);
    const none = await fresh.service.reload();
    assert.equal(none?.config.brokenFiles?.[0]?.inForce, 'none');
    assert.match(notice.text, /NOT in force/);
    await until('the chat says so', () => /project hooks from `\.claude\/settings\.json` are NOT in force/.test(chatNotice(posted).text));
    assert.ok(none?.config.diagnostics.some((d) => d.code === 'lastGoodInForce' && d.severity === 'error'));
  });
});
