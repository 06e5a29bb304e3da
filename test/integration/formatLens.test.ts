/**
 * The workbench in other agents' hook files, in the real extension host: a Copilot
 * `.github/hooks/*.json`, a `.gemini/settings.json` hook and a Cline script, approved and run through the
 * extension's own runner, get the CodeLens and hover `.claude` hooks get, named with the format
 * (`Copilot .github/hooks/….json › hooks.preToolUse[0]`) and the agent's event (the Cline script's
 * at its line 1); a misspelt Copilot
 * tool matcher is a warning in Problems; Run with Sample Input runs the Copilot hook through its
 * adapter; Save as Test Case on its deny records the format and the case passes in the Test Explorer.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HookwiseApi } from '../../src/extension';
import type { ModelClient } from '../../src/model/modelClient';
import { HookTestController } from '../../src/vscode/hookTests/hookTestController';
import type { HookRunsNode, HookRunsTreeProvider } from '../../src/vscode/tree/hookRunsTreeProvider';
import { workspaceRoot } from './configSupport';
import { bashHookInput, until } from './hostWait';

const COPILOT_FILE = '.github/hooks/lens-guard.json';
const GEMINI_FILE = '.gemini/settings.json';
const CLINE_FILE = '.clinerules/hooks/PreToolUse';
const CREATED_FOLDERS = ['.github', '.gemini', '.clinerules'];
const COPILOT_ID = `Copilot ${COPILOT_FILE} › hooks.preToolUse[0]`;
const GEMINI_ID = `Gemini ${GEMINI_FILE} › hooks.BeforeTool[0].hooks[0]`;
const DENY = `echo '{"permissionDecision":"deny","permissionDecisionReason":"no curl from Copilot"}'`;

const NO_MODEL: ModelClient = {
  label: 'no model',
  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('no model in this test');
  },
};

async function titles(uri: vscode.Uri): Promise<{ title: string; args: unknown[] }[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  return lenses.map((l) => ({ title: l.command?.title ?? '', args: l.command?.arguments ?? [] }));
}

/** The hovers' Markdown as it reads rendered (backslash escapes dropped). */
async function hoverAt(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)) ?? [];
  const md = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
  return md.replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
}

/** Depth-first search of Hook Runs for the occurrence of `sessionId`. */
function findOccurrence(provider: HookRunsTreeProvider, sessionId: string, node?: HookRunsNode): HookRunsNode | undefined {
  for (const child of provider.getChildren(node)) {
    if (child.kind === 'session' && child.sessionId !== sessionId) continue;
    if (child.kind === 'occurrence') return child;
    const found = findOccurrence(provider, sessionId, child);
    if (found) return found;
  }
  return undefined;
}

suite('Format hook lens', () => {
  let api: HookwiseApi;
  const file = (rel: string): string => path.join(workspaceRoot(), rel);
  const cleanup: (() => unknown)[] = [];

  suiteSetup(async function () {
    this.timeout(60_000);
    api = await vscode.extensions.getExtension<HookwiseApi>('hookwise.hookwise')!.activate();
    await until('the first hook configuration', () => api.hookConfig.current !== undefined);
    // The folders are this suite's own (the fixture has none): it removes them whole, so the next suite starts clean.
    for (const folder of CREATED_FOLDERS) assert.equal(existsSync(file(folder)), false, `the fixture folder has no ${folder}`);
    mkdirSync(path.dirname(file(COPILOT_FILE)), { recursive: true });
    mkdirSync(path.dirname(file(GEMINI_FILE)), { recursive: true });
    const copilot = {
      version: 1,
      hooks: {
        preToolUse: [
          { type: 'command', bash: DENY, matcher: 'bash' },
          { type: 'command', bash: 'true', matcher: 'bsh' },
        ],
      },
    };
    writeFileSync(file(COPILOT_FILE), `${JSON.stringify(copilot, null, 2)}\n`);
    const gemini = { hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'true' }] }] } };
    writeFileSync(file(GEMINI_FILE), `${JSON.stringify(gemini, null, 2)}\n`);
    mkdirSync(path.dirname(file(CLINE_FILE)), { recursive: true });
    writeFileSync(file(CLINE_FILE), '#!/usr/bin/env bash\ncat > /dev/null\necho \'{"cancel": false}\'\n');
    chmodSync(file(CLINE_FILE), 0o755);
    cleanup.push(...CREATED_FOLDERS.map((folder) => () => rmSync(file(folder), { recursive: true, force: true })));
    // Project hooks of every format run once approved: approve them as the approval dialog would.
    const loaded = await api.hookConfig.reload();
    const ours = (loaded?.config.hooks ?? []).filter(
      (h) => h.source.kind === 'file' && [file(COPILOT_FILE), file(GEMINI_FILE), file(CLINE_FILE)].includes(h.source.file),
    );
    assert.equal(ours.length, 4, 'the Copilot, Gemini and Cline hooks are loaded');
    await api.hookConfig.approve(ours.map((h) => h.hash));
    await api.hookConfig.reload();
    await until('the approved format hooks', () => ours.every((o) => api.hookConfig.current?.applied.active.some((h) => h.hash === o.hash) === true), 15_000);
  });

  suiteTeardown(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
    await api.hookConfig.reload();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('lenses and hovers name the format and count the runs; lint speaks Copilot; Run with Sample Input runs through the adapter', async function () {
    this.timeout(60_000);
    const copilotUri = vscode.Uri.file(file(COPILOT_FILE));
    const geminiUri = vscode.Uri.file(file(GEMINI_FILE));
    const copilotDoc = await vscode.workspace.openTextDocument(copilotUri);
    const geminiDoc = await vscode.workspace.openTextDocument(geminiUri);
    await vscode.window.showTextDocument(copilotDoc);

    // One real run through the extension's runner: the Copilot hook denies, the Gemini hook runs too.
    const result = await api.controller.runtime.runner.run('PreToolUse', bashHookInput('format-lens', 'curl https://example.com', 'toolu_fl'), {
      signal: AbortSignal.timeout(15_000),
      cwd: workspaceRoot(),
    });
    assert.equal(result.decision, 'deny');
    assert.equal(result.reason, 'no curl from Copilot');

    await until('the Copilot lens to show the deny', async () => (await titles(copilotUri)).some((l) => /^\d+ runs? · last: deny/.test(l.title)), 15_000);
    const copilotLenses = await titles(copilotUri);
    assert.ok(
      copilotLenses.some((l) => l.title === 'Run with Sample Input…' && l.args[0] === COPILOT_ID),
      JSON.stringify(copilotLenses),
    );
    await until('the Gemini lens to count its run', async () => (await titles(geminiUri)).some((l) => /^\d+ runs? · last:/.test(l.title)), 15_000);
    assert.ok((await titles(geminiUri)).some((l) => l.title === 'Show Runs' && l.args[0] === GEMINI_ID));

    // The Cline script is one hook: its lenses sit on line 1.
    const clineUri = vscode.Uri.file(file(CLINE_FILE));
    await vscode.workspace.openTextDocument(clineUri);
    const clineLenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', clineUri, 100)) ?? [];
    const clineRun = clineLenses.find((l) => l.command?.title === 'Run with Sample Input…');
    assert.equal(clineRun?.command?.arguments?.[0], `Cline ${CLINE_FILE}`);
    assert.equal(clineRun.range.start.line, 0);
    await until('the Cline lens to count its run', async () => (await titles(clineUri)).some((l) => /^\d+ runs? · last:/.test(l.title)), 15_000);

    // Hovers on the commands: the format's label, the agent's event, and that the hook runs.
    const copilotHover = await hoverAt(copilotUri, copilotDoc.positionAt(copilotDoc.getText().indexOf('permissionDecision')));
    assert.ok(copilotHover.includes(COPILOT_ID), copilotHover);
    assert.ok(copilotHover.includes('preToolUse → PreToolUse [bash]'), copilotHover);
    assert.match(copilotHover, /✓ effective/);
    const geminiHover = await hoverAt(geminiUri, geminiDoc.positionAt(geminiDoc.getText().indexOf('"true"') + 2));
    assert.ok(geminiHover.includes(GEMINI_ID), geminiHover);
    assert.ok(geminiHover.includes('BeforeTool → PreToolUse [run_shell_command]'), geminiHover);

    // The misspelt Copilot matcher: a warning in Copilot's terms, on its line.
    await until('the lint warning in Problems', () => vscode.languages.getDiagnostics(copilotUri).some((d) => d.message.includes('`bsh`')), 15_000);
    const warning = vscode.languages.getDiagnostics(copilotUri).find((d) => d.message.includes('`bsh`'))!;
    assert.match(warning.message, /selects none of Copilot's tool names .* did you mean `bash`\?/);
    assert.equal(copilotDoc.lineAt(warning.range.start.line).text.trim(), '"matcher": "bsh"');

    // Run with Sample Input: the Copilot hook alone, through its adapter.
    const sample = await vscode.commands.executeCommand<{ decision: string; reason?: string }>(
      'hookwise.hookLens.runSample',
      COPILOT_ID,
      bashHookInput('format-lens', 'curl https://example.com', 'toolu_fl2'),
    );
    assert.equal(sample?.decision, 'deny');
    assert.equal(sample.reason, 'no curl from Copilot');
  });

  test('Save as Test Case on a Copilot deny records the format; the case passes in the Test Explorer', async function () {
    this.timeout(60_000);
    const sessionId = `format-save-${Date.now()}`;
    await api.controller.runtime.runner.run('PreToolUse', bashHookInput(sessionId, 'curl https://example.com', 'toolu_fs'), {
      signal: AbortSignal.timeout(15_000),
      cwd: workspaceRoot(),
    });
    let occurrence: HookRunsNode | undefined;
    await until('the run in Hook Runs', () => (occurrence = findOccurrence(api.hookRuns, sessionId)) !== undefined);
    const name = `copilot no curl ${Date.now()}`;
    const uri = await vscode.commands.executeCommand<vscode.Uri | undefined>('hookwise.hookRuns.saveAsTestCase', occurrence, { name, overwrite: true });
    assert.ok(uri, 'Save as Test Case wrote nothing');
    cleanup.push(() => rmSync(uri.fsPath, { force: true }));
    const saved = JSON.parse(readFileSync(uri.fsPath, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(saved, {
      name,
      event: 'PreToolUse',
      format: 'copilot',
      input: { permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'curl https://example.com' } },
      expect: { decision: 'deny', reason: 'no curl from Copilot' },
    });

    const changed = new vscode.EventEmitter<unknown>();
    const controller = new HookTestController({
      id: 'hookwise.hookTests.formatIt',
      config: () => api.hookConfig.current,
      onDidChangeConfig: changed.event,
      model: () => NO_MODEL,
    });
    cleanup.push(() => (controller.dispose(), changed.dispose()));
    await controller.discover();
    const item = controller.controller.items.get(uri.toString());
    assert.ok(item, 'the saved case is a test item');
    await controller.run(new vscode.TestRunRequest([item]), undefined);
    assert.deepEqual(controller.results.get(item.id), { state: 'passed', message: '' });
  });
});
