/**
 * The chat webview's message protocol inside the real extension host: inbound messages are
 * validated (invalid ones dropped and logged), the ready handshake answers with `init`
 * carrying everything posted before, and the provider's API turns into typed messages.
 * The webview itself is faked at the `vscode.WebviewView` boundary; the e2e suite drives
 * the real one in a browser.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parseFromWebview, toWebviewSchema, type ToWebviewMessage } from '../../src/shared/webviewProtocol';
import { ChatViewProvider } from '../../src/vscode/chat/chatViewProvider';

const MAIN = { agentId: 'main', parentAgentId: null, agentType: 'main' } as const;

/** A WebviewView whose webview records what is posted and lets the test "send" messages. */
function fakeView() {
  const fromWebview = new vscode.EventEmitter<unknown>();
  const disposed = new vscode.EventEmitter<void>();
  const posted: ToWebviewMessage[] = [];
  const webview = {
    options: {} as vscode.WebviewOptions,
    html: '',
    cspSource: 'vscode-webview://fake',
    asWebviewUri: (uri: vscode.Uri) => uri,
    onDidReceiveMessage: fromWebview.event,
    postMessage: async (message: unknown) => {
      const parsed = toWebviewSchema.safeParse(message);
      assert.ok(parsed.success, `extension posted an invalid message: ${JSON.stringify(message)}`);
      posted.push(parsed.data);
      return true;
    },
  };
  const view = { webview, onDidDispose: disposed.event, visible: true, show: () => undefined } as unknown as vscode.WebviewView;
  return { view, webview, posted, send: (m: unknown) => fromWebview.fire(m), dispose: () => disposed.fire() };
}

function fakeLog(): vscode.LogOutputChannel & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (m: string) => warnings.push(m), info: () => undefined, error: () => undefined } as unknown as vscode.LogOutputChannel & {
    warnings: string[];
  };
}

suite('Chat webview protocol', () => {
  test('parses valid inbound messages and rejects invalid ones', () => {
    assert.deepEqual(parseFromWebview({ type: 'submit', prompt: 'hi' }), { ok: true, message: { type: 'submit', prompt: 'hi' } });
    assert.equal(parseFromWebview({ type: 'submit', prompt: '' }).ok, false);
    assert.equal(parseFromWebview({ type: 'resumeSession' }).ok, false);
    assert.equal(parseFromWebview('ready').ok, false);
  });

  test('renders a strict-CSP page limited to the extension media folders', () => {
    const provider = new ChatViewProvider(vscode.Uri.file('/ext'));
    const fake = fakeView();
    try {
      provider.resolveWebviewView(fake.view);
      const html = fake.webview.html;
      assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src vscode-webview:\/\/fake; script-src 'nonce-[^']+'/);
      assert.ok(!/https?:\/\//.test(html.replace(/http-equiv/g, '')), 'no remote resources');
      assert.match(html, /placeholder="Ask Hookwise…"/);
      assert.match(html, /role="log" aria-live="polite"/);
      const nonce = /nonce-([^']+)'/.exec(html)?.[1];
      assert.ok(nonce && html.includes(`<script nonce="${nonce}"`), 'the script carries the nonce');
      assert.deepEqual(
        fake.webview.options.localResourceRoots?.map((u) => u.path),
        ['/ext/media', '/ext/dist/media'],
      );
      assert.equal(fake.webview.options.enableScripts, true);
    } finally {
      provider.dispose();
    }
  });

  test('queues until ready, then sends init with everything posted before', async () => {
    const log = fakeLog();
    const provider = new ChatViewProvider(vscode.Uri.file('/ext'), log);
    const fake = fakeView();
    try {
      provider.resolveWebviewView(fake.view);
      provider.setModelLabel('Playground (scripted)');
      provider.setBusy(true);
      provider.postAgentEvent({ type: 'text', agent: MAIN, delta: 'Hel' });
      provider.postAgentEvent({ type: 'text', agent: MAIN, delta: 'lo' });
      provider.showHistory([{ id: 's1', title: 'old chat', updatedAt: 1 }]);
      assert.equal(fake.posted.length, 0, 'nothing is posted before ready');
      fake.send({ type: 'ready' });
      // The offered editor selection depends on what earlier tests left selected: not this test's business.
      if (fake.posted[0]?.type === 'init') delete fake.posted[0].editorSelection;
      assert.deepEqual(fake.posted[0], {
        type: 'init',
        modelLabel: 'Playground (scripted)',
        busy: true,
        events: [{ type: 'text', agentId: 'main', delta: 'Hello' }],
      });
      assert.deepEqual(fake.posted[1], { type: 'history', sessions: [{ id: 's1', title: 'old chat', updatedAt: 1 }] });
      provider.postAgentEvent({ type: 'toolCall', agent: MAIN, toolUseId: 't1', toolName: 'Bash', input: { command: 'ls' }, summary: 'ls' });
      // @ts-expect-error hook runs are no longer agent events; one that slipped through still never reaches the chat
      provider.postAgentEvent({ type: 'hookRun', record: {} as never, phase: 'started' });
      assert.equal(fake.posted.length, 3, 'hookRun events are not sent to the chat');
      assert.deepEqual(fake.posted[2], {
        type: 'agentEvent',
        event: { type: 'toolCall', agentId: 'main', toolUseId: 't1', toolName: 'Bash', summary: 'ls', input: '{\n  "command": "ls"\n}' },
      });
      provider.resetSession();
      assert.deepEqual(fake.posted[3], { type: 'sessionReset' });
    } finally {
      provider.dispose();
    }
  });

  test('turns webview messages into events and drops invalid ones', async () => {
    const log = fakeLog();
    const provider = new ChatViewProvider(vscode.Uri.file('/ext'), log);
    const fake = fakeView();
    const seen: string[] = [];
    const subs = [
      provider.onDidSubmit((p) => seen.push(`submit:${p.prompt}`)),
      provider.onDidStop(() => seen.push('stop')),
      provider.onDidRequestNewChat(() => seen.push('newChat')),
      provider.onDidRequestHistory(() => seen.push('history')),
      provider.onDidResumeSession((id) => seen.push(`resume:${id}`)),
      provider.onDidRequestSetup(() => seen.push('setup')),
    ];
    try {
      provider.resolveWebviewView(fake.view);
      fake.send({ type: 'ready' });
      fake.send({ type: 'submit', prompt: 'run the tests' });
      fake.send({ type: 'submit', prompt: 42 });
      fake.send({ type: 'launchMissiles' });
      fake.send({ type: 'stop' });
      fake.send({ type: 'newChat' });
      fake.send({ type: 'showHistory' });
      fake.send({ type: 'resumeSession', id: 'abc' });
      fake.send({ type: 'openSetup' });
      // A submit is handed on once its attachments are read (none here): after the synchronous ones.
      for (let i = 0; i < 50 && !seen.includes('submit:run the tests'); i++) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(seen, ['stop', 'newChat', 'history', 'resume:abc', 'setup', 'submit:run the tests']);
      assert.ok(
        fake.posted.some((m) => m.type === 'agentEvent' && m.event.type === 'userPrompt' && m.event.text === 'run the tests'),
        'the prompt is echoed to the webview',
      );
      assert.equal(log.warnings.length, 2);
      assert.match(log.warnings[0] ?? '', /dropped an invalid webview message/);
    } finally {
      subs.forEach((s) => s.dispose());
      provider.dispose();
    }
  });

  test('a notice resolves with the clicked action and survives a re-created view', async () => {
    const provider = new ChatViewProvider(vscode.Uri.file('/ext'));
    const first = fakeView();
    try {
      provider.resolveWebviewView(first.view);
      const answer = provider.showNotice('No model configured', [
        { id: 'playground', label: 'Use Playground' },
        { id: 'configure', label: 'Configure Model' },
      ]);
      first.dispose();
      const second = fakeView();
      provider.resolveWebviewView(second.view);
      second.send({ type: 'ready' });
      const init = second.posted[0];
      assert.ok(init?.type === 'init' && init.notice, 'init carries the notice');
      second.send({ type: 'noticeAction', noticeId: init.notice.id, actionId: 'playground' });
      assert.equal(await answer, 'playground');
      assert.deepEqual(second.posted.at(-1), { type: 'notice' });
    } finally {
      provider.dispose();
    }
  });

  test('#file mentions attach the file as a Read call with numbered lines; a file a Read deny rule covers is not attached', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    const provider = new ChatViewProvider(vscode.Uri.file('/ext'));
    provider.setReadPolicy((file) => (file.endsWith('settings.json') ? 'Read(.claude/settings.json)' : undefined));
    const fake = fakeView();
    const submitted: { prompt: string; context: readonly string[] }[] = [];
    const sub = provider.onDidSubmit((s) => submitted.push(s));
    try {
      provider.resolveWebviewView(fake.view);
      fake.send({ type: 'ready' });
      const file = vscode.Uri.joinPath(folder.uri, 'notes.txt');
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('first line\nsecond line\n'));
      fake.send({ type: 'submit', prompt: 'summarize #file:notes.txt:2 and #file:.claude/settings.json', includeEditorSelection: false });
      for (let i = 0; i < 100 && submitted.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      const [sent] = submitted;
      assert.ok(sent, 'the prompt was handed on');
      assert.equal(sent.prompt, 'summarize #file:notes.txt:2 and #file:.claude/settings.json');
      assert.deepEqual(sent.context.slice(0, 2), [
        `<system-reminder>\nCalled the Read tool with the following input: ${JSON.stringify({ file_path: file.fsPath, offset: 2, limit: 1 })}\n</system-reminder>`,
        `<system-reminder>\nResult of calling the Read tool: ${JSON.stringify('     2\tsecond line')}\n</system-reminder>`,
      ]);
      assert.match(sent.context[2] ?? '', /permission rule Read\(\.claude\/settings\.json\) does not allow reading it/);
      assert.ok(!sent.context.join('').includes('"hooks"'), 'the denied file’s text is not sent');
      const echoed = fake.posted.find((m) => m.type === 'agentEvent' && m.event.type === 'userPrompt');
      assert.ok(echoed?.type === 'agentEvent' && echoed.event.type === 'userPrompt');
      assert.deepEqual(
        echoed.event.attachments?.map((a) => a.label),
        ['notes.txt:2', 'settings.json'],
      );
      await vscode.workspace.fs.delete(file);
    } finally {
      sub.dispose();
      provider.dispose();
    }
  });

  test('the files a prompt attaches are handed on with it (their nested memory loads), never one a Read deny rule covers', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    const provider = new ChatViewProvider(vscode.Uri.file('/ext'));
    provider.setReadPolicy((file) => (file.endsWith('secret.txt') ? 'Read(secret.txt)' : undefined));
    const fake = fakeView();
    const submitted: { prompt: string; files?: readonly string[] | undefined }[] = [];
    const sub = provider.onDidSubmit((s) => submitted.push(s));
    const file = vscode.Uri.joinPath(folder.uri, 'pkg', 'api', 'server.ts');
    const secret = vscode.Uri.joinPath(folder.uri, 'secret.txt');
    try {
      provider.resolveWebviewView(fake.view);
      fake.send({ type: 'ready' });
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('export const port = 1;\n'));
      await vscode.workspace.fs.writeFile(secret, new TextEncoder().encode('hush\n'));
      fake.send({ type: 'submit', prompt: 'review #file:pkg/api/server.ts and #file:secret.txt', includeEditorSelection: false });
      for (let i = 0; i < 100 && submitted.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(submitted[0]?.files, [file.fsPath]);
    } finally {
      sub.dispose();
      provider.dispose();
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder.uri, 'pkg'), { recursive: true });
      await vscode.workspace.fs.delete(secret);
    }
  });
});
