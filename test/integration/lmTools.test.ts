/**
 * VS Code's tool registry through Hookwise's hooks, in the real extension host: the fixture
 * extension (test/fixtures/lmProvider) registers a tool with `vscode.lm.registerTool` and
 * scripted models; whole agent turns run on the vscode-lm provider and call that tool as
 * `vscode__hookwise_test_echo`, through PreToolUse, the approval popup and PostToolUse.
 * Also: `hookwise_hook_runs`, the tool Hookwise registers for other agents.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../src/agent/agentEvents';
import { HookwiseRuntime } from '../../src/runtime/hookwiseRuntime';
import { createBuiltinTools } from '../../src/agent/tools/builtinTools';
import { createTodoStore } from '../../src/agent/tools/todoStore';
import { standardConfigSources } from '../../src/hooks/config/configSources';
import { loadHookConfig } from '../../src/hooks/config/hookConfigLoader';
import type { HookRunRecord } from '../../src/hooks/hookRunTypes';
import type { HookwiseApi } from '../../src/extension';
import { ModalPermissionProvider } from '../../src/vscode/permissions/modalPermissionProvider';
import { createVscodeTools, lmToolEntries } from '../../src/vscode/tools/vscodeTools';
import { lmFixture, scriptedClient } from './lmFixture';
import type { LmFixture } from './lmFixture';

const ECHO = 'vscode__hookwise_test_echo';
const FIXTURE_ID = 'hookwise-test.lm-provider';

/** Text of every part of a tool result. */
function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** The tool results the model received in its `n`th request (0-based). */
function toolResults(fixture: LmFixture, n: number): { callId?: string; content?: string[] }[] {
  return (fixture.requests[n]?.messages ?? []).flatMap((m) => m.parts.filter((p) => p.type === 'toolResult'));
}

/** One agent turn on the scripted vscode-lm model with the fixture's tool enabled. */
async function runTurn(options: {
  readonly dialogAnswer?: string;
  readonly setup?: (runtime: HookwiseRuntime) => void;
  /** Written to the project's .claude/settings.json and loaded as the extension loads it (trusted). */
  readonly claudeSettings?: object;
  /** Aborts the prompt (Stop). */
  readonly signal?: AbortSignal;
}): Promise<{ events: AgentEvent[]; popups: string[]; runs: HookRunRecord[] }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-lmtools-'));
  const home = path.join(tmp, 'home');
  const ws = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(ws, '.claude'), { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  if (options.claudeSettings) fs.writeFileSync(path.join(ws, '.claude', 'settings.json'), JSON.stringify(options.claudeSettings));
  const popups: string[] = [];
  const runs: HookRunRecord[] = [];
  const permissionProvider = new ModalPermissionProvider({
    dialog: async (message, _options, ...buttons) => (popups.push(message), buttons.find((b) => b.title === options.dialogAnswer)),
    showProposedChange: async () => undefined,
    localSettingsFile: () => undefined,
  });
  const runtime = new HookwiseRuntime({
    projectDir: ws,
    homeDir: home,
    model: await scriptedClient(),
    observers: [{ onHookFinished: (r) => runs.push(r), onAskResolved: (r) => runs.push(r) }],
    permissionProvider,
    transcriptDir: path.join(tmp, 'transcripts'),
    askFallback: 'deny',
  });
  runtime.applyConfig(await loadHookConfig(standardConfigSources({ homeDir: home, folders: [{ root: ws }] })), { trusted: true });
  options.setup?.(runtime);
  const tools = [...createBuiltinTools(), ...createVscodeTools({ patterns: [`${FIXTURE_ID}/*`] })];
  const events: AgentEvent[] = [];
  const session = runtime.createSession({ permissionMode: 'default', trusted: true, emit: (e) => events.push(e), tools });
  try {
    await session.start('startup', new AbortController().signal);
    await session.submit('echo hi', options.signal ?? new AbortController().signal);
    await session.end('other');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { events, popups, runs };
}

suite('VS Code tools through hooks (vscode.lm.tools)', () => {
  let fixture: LmFixture;
  suiteSetup(async () => {
    fixture = await lmFixture();
  });
  setup(() => fixture.reset());

  test('an extension tool is found in vscode.lm.tools with its extension, and only enabled ones are offered', () => {
    const entry = lmToolEntries().find((t) => t.name === 'hookwise_test_echo');
    assert.ok(entry, 'the fixture tool is registered');
    assert.equal(entry.extensionId, FIXTURE_ID);
    assert.deepEqual(entry.tags, ['hookwise-test']);
    assert.deepEqual(createVscodeTools({ patterns: [] }), []);
    assert.deepEqual(
      createVscodeTools({ patterns: [`${FIXTURE_ID}/*`] }).map((t) => t.name),
      [ECHO],
    );
    assert.deepEqual(
      createVscodeTools({ patterns: ['hookwise_test_echo'] }).map((t) => t.name),
      [ECHO],
    );
    assert.deepEqual(createVscodeTools({ patterns: ['other.extension/*'] }), []);
    const [tool] = createVscodeTools({ patterns: [`${FIXTURE_ID}/hookwise_test_echo`] });
    assert.deepEqual(
      tool?.jsonSchema,
      vscode.lm.tools.find((t) => t.name === 'hookwise_test_echo')?.inputSchema,
      'the model gets the schema the extension declared',
    );
    assert.deepEqual((tool?.jsonSchema as { required?: unknown }).required, ['text']);
    assert.equal(tool?.readOnly, false);
  });

  test('a PreToolUse hook denies the extension tool: it never runs and the model reads the reason', async () => {
    fixture.setScript([[{ toolCall: { id: 'call_1', name: ECHO, input: { text: 'hi' } } }], [{ text: 'Understood.' }]]);
    const seen: unknown[] = [];
    const { popups, runs } = await runTurn({
      setup: (runtime) => {
        runtime.hooks.onPreToolUse(
          (input) => {
            seen.push(input);
            return { decision: 'deny', reason: 'no echoes today' };
          },
          { matcher: 'vscode__.*', label: 'deny vscode tools' },
        );
      },
    });
    assert.deepEqual(fixture.toolInvocations, [], 'the tool was not invoked');
    assert.deepEqual(popups, [], 'a hook deny asks nobody');
    assert.equal((seen[0] as { tool_name?: string }).tool_name, ECHO);
    assert.deepEqual((seen[0] as { tool_input?: unknown }).tool_input, { text: 'hi' });
    assert.deepEqual(fixture.requests[0]?.tools.includes(ECHO), true, 'the model was offered the tool');
    const [result] = toolResults(fixture, 1);
    assert.equal(result?.callId, 'call_1');
    assert.match(result?.content?.join('') ?? '', /no echoes today/);
    assert.ok(runs.some((r) => r.event === 'PreToolUse' && r.matchValue === ECHO && r.outcome?.decision === 'deny'));
  });

  test('a command hook in .claude/settings.json (exit 2) blocks the extension tool by its vscode__ name', async () => {
    fixture.setScript([[{ toolCall: { id: 'call_c', name: ECHO, input: { text: 'hi' } } }], [{ text: 'Fine.' }]]);
    const { popups, runs } = await runTurn({
      claudeSettings: {
        hooks: { PreToolUse: [{ matcher: 'vscode__.*', hooks: [{ type: 'command', command: "echo 'VS Code tools are off limits here' >&2; exit 2" }] }] },
      },
    });
    assert.deepEqual(fixture.toolInvocations, []);
    assert.deepEqual(popups, []);
    assert.match(toolResults(fixture, 1)[0]?.content?.join('') ?? '', /VS Code tools are off limits here/);
    assert.ok(runs.some((r) => r.event === 'PreToolUse' && r.matchValue === ECHO && r.actionKind === 'command' && r.status === 'blocked'));
  });

  test('Stop while an extension tool runs cancels its invocation token', async () => {
    fixture.setScript([[{ toolCall: { id: 'call_s', name: ECHO, input: { text: 'slow', waitForCancel: true } } }], [{ text: 'never asked' }]]);
    const stop = new AbortController();
    const poll = setInterval(() => {
      if (fixture.toolInvocations.length > 0) stop.abort(new Error('Stopped by the user'));
    }, 20);
    try {
      await runTurn({ dialogAnswer: 'Allow', signal: stop.signal });
    } finally {
      clearInterval(poll);
    }
    const deadline = Date.now() + 5000;
    while (fixture.toolCancellations === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(fixture.toolCancellations, 1, 'the tool saw its token cancelled');
    assert.equal(fixture.requests.length, 1, 'the model is not asked again after Stop');
  });

  test('with no hook the call asks; Allow in the popup runs the tool and PostToolUse sees its response', async () => {
    fixture.setScript([[{ text: 'Echoing.' }, { toolCall: { id: 'call_2', name: ECHO, input: { text: 'hello there' } } }], [{ text: 'Done.' }]]);
    const post: unknown[] = [];
    const { popups } = await runTurn({
      dialogAnswer: 'Allow',
      setup: (runtime) => {
        runtime.hooks.onPostToolUse((input) => void post.push(input), { matcher: ECHO });
      },
    });
    assert.equal(popups.length, 1);
    assert.match(popups[0] ?? '', /vscode__hookwise_test_echo/);
    assert.deepEqual(fixture.toolInvocations, [{ text: 'hello there' }]);
    const [result] = toolResults(fixture, 1);
    assert.deepEqual(result, { type: 'toolResult', callId: 'call_2', content: ['echo: hello there'] });
    assert.equal(post.length, 1);
    assert.deepEqual((post[0] as { tool_response?: unknown }).tool_response, { content: [{ type: 'text', text: 'echo: hello there' }] });
  });

  test('Deny in the popup keeps the tool from running', async () => {
    fixture.setScript([[{ toolCall: { id: 'call_3', name: ECHO, input: { text: 'x' } } }], [{ text: 'OK.' }]]);
    const { popups } = await runTurn({ dialogAnswer: 'Deny' });
    assert.equal(popups.length, 1);
    assert.deepEqual(fixture.toolInvocations, []);
    assert.equal(toolResults(fixture, 1)[0]?.callId, 'call_3');
  });

  test("VS Code's own language tool works from outside its chat: vscode_listCodeUsages finds a symbol's usages", async function () {
    this.timeout(60_000);
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root);
    const file = path.join(root, 'usagesProbe.ts');
    fs.writeFileSync(file, 'export function greetPerson(n: string) { return n; }\nexport const greeting = greetPerson("a");\n');
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
      const [tool] = createVscodeTools({ patterns: ['vscode_listCodeUsages'] });
      assert.equal(tool?.name, 'vscode__vscode_listCodeUsages');
      const ctx = { cwd: root, workspaceRoot: root, signal: new AbortController().signal, sessionId: 's', agentId: 'main', todos: createTodoStore() };
      // The language server may still be starting: ask until it answers with usages (bounded by the test timeout).
      let result = await tool.execute({ symbol: 'greetPerson', filePath: 'usagesProbe.ts', lineContent: 'export function greetPerson' }, ctx);
      const deadline = Date.now() + 40_000;
      while (!/2 usages/.test(result.content) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        result = await tool.execute({ symbol: 'greetPerson', filePath: 'usagesProbe.ts', lineContent: 'export function greetPerson' }, ctx);
      }
      assert.equal(result.isError, false, result.content);
      assert.match(result.content, /2 usages of `greetPerson`/);
      assert.match(result.content, /greetPerson\("a"\)/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(file, { force: true });
    }
  });
});

suite('Hookwise agent on the vscode-lm provider (the extension wiring)', () => {
  let fixture: LmFixture;
  let api: HookwiseApi;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('hookwise');
  suiteSetup(async () => {
    fixture = await lmFixture();
    const ext = vscode.extensions.getExtension<HookwiseApi>('hookwise.hookwise');
    assert.ok(
      ext,
      `extensions: ${vscode.extensions.all
        .map((e) => e.id)
        .filter((id) => !id.startsWith('vscode.'))
        .join(', ')}`,
    );
    api = await ext.activate();
  });
  setup(() => fixture.reset());
  suiteTeardown(async () => {
    for (const key of ['model.provider', 'model.name', 'vscodeTools.enabled']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    await api.controller.reloadModel();
  });

  test('a prompt runs on the selected vscode-lm model, a hook denies the enabled extension tool, and hookwise_hook_runs reports it', async () => {
    await config().update('model.provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
    await config().update('model.name', 'scripted', vscode.ConfigurationTarget.Global);
    await config().update('vscodeTools.enabled', [`${FIXTURE_ID}/*`], vscode.ConfigurationTarget.Global);
    await api.controller.reloadModel();
    assert.equal(api.controller.model.label, 'Scripted Test Model (VS Code Language Model)');
    await api.controller.newSession();
    fixture.setScript([[{ toolCall: { id: 'call_9', name: ECHO, input: { text: 'secret' } } }], [{ text: 'All right.' }]]);
    const hook = api.hooks.onPreToolUse(() => ({ decision: 'deny', reason: 'integration test says no' }), { matcher: ECHO, label: 'no echo' });
    try {
      assert.equal(await api.controller.submit('please echo'), true);
    } finally {
      hook.dispose();
      await api.controller.newSession();
    }
    assert.ok(fixture.requests[0]?.tools.includes(ECHO), `offered: ${fixture.requests[0]?.tools.join(', ')}`);
    assert.ok(!fixture.requests[0]?.tools.includes('vscode__hookwise_hook_runs'), 'Hookwise never offers its own tool to itself');
    assert.deepEqual(fixture.toolInvocations, []);
    assert.match(toolResults(fixture, 1)[0]?.content?.join('') ?? '', /integration test says no/);

    const tool = vscode.lm.tools.find((t) => t.name === 'hookwise_hook_runs');
    assert.ok(tool, 'hookwise_hook_runs is in vscode.lm.tools');
    const denied = resultText(
      await vscode.lm.invokeTool('hookwise_hook_runs', { input: { event: 'PreToolUse', decision: 'deny' }, toolInvocationToken: undefined }),
    );
    const runs = JSON.parse(denied) as { event: string; matched?: string; decision: string; reason?: string; hook: string }[];
    assert.equal(runs[0]?.matched, ECHO);
    assert.equal(runs[0]?.decision, 'deny');
    assert.equal(runs[0]?.reason, 'integration test says no');
    assert.equal(runs[0]?.hook, 'no echo');
    const none = resultText(await vscode.lm.invokeTool('hookwise_hook_runs', { input: { text: 'no-such-thing-anywhere' }, toolInvocationToken: undefined }));
    assert.equal(none, 'No Hookwise hook runs match.');
    await assert.rejects(Promise.resolve(vscode.lm.invokeTool('hookwise_hook_runs', { input: { limit: 0 }, toolInvocationToken: undefined })), /limit/);
  });
});
