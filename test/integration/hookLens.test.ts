/**
 * The settings-file lenses in the real extension host: the fixture `.claude/settings.json` hook runs
 * through the extension's own runner, then its CodeLens shows the run count and last outcome, the
 * hover names the hook and says it is effective, the command links to the file it names, "Run with
 * Sample Input…" runs it alone, and the Disable lens writes `hookwise.hooks.disabled` (Enable undoes it).
 * Without an input given, "Run with Sample Input…" opens the input in a JSON editor; its lens runs
 * the hook with the edited text and the full result opens rendered, in a tab of its own.
 */
import * as assert from 'node:assert/strict';
import { writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HookwiseApi } from '../../src/extension';
import { hookSwitchId } from '../../src/hooks/config/hookSwitches';
import { workspaceRoot } from './configSupport';
import { bashHookInput, retry, until } from './hostWait';

const EXTENSION_ID = 'hookwise.hookwise';
const HOOK_ID = '.claude/settings.json › hooks.PreToolUse[0].hooks[0]';

async function lenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
}

/** The titles of the lenses above the fixture hook's object. */
async function titles(uri: vscode.Uri): Promise<string[]> {
  return (await lenses(uri)).map((l) => l.command?.title ?? '');
}

function runCount(all: readonly string[]): number {
  const stats = all.find((t) => /^\d+ runs? · last:/.test(t) || t === 'no runs yet in this workspace') ?? '';
  return stats.startsWith('no runs') ? 0 : Number(/^(\d+)/.exec(stats)?.[1] ?? NaN);
}

/** The hovers' Markdown as it reads rendered (backslash escapes dropped). */
function hoverText(hovers: readonly vscode.Hover[]): string {
  const md = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
  return md.replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
}

suite('Hook lens', () => {
  let api: HookwiseApi;
  /** The lens names the hook by its place in the file; its switch in settings names it by identity. */
  const switchId = (): string => {
    const hook = api.hookConfig.current?.config.hooks.find((h) => h.source.kind === 'file' && h.source.jsonPath === 'hooks.PreToolUse[0].hooks[0]');
    assert.ok(hook, 'the fixture hook is loaded');
    return hookSwitchId(hook);
  };
  const settingsFile = (): string => path.join(workspaceRoot(), '.claude', 'settings.json');
  suiteSetup(async function () {
    // Results open as Markdown previews: the Markdown extension starts on the first one, slowly on a busy machine; start it here.
    this.timeout(60_000);
    await vscode.extensions.getExtension('vscode.markdown-language-features')?.activate();
    api = await vscode.extensions.getExtension<HookwiseApi>(EXTENSION_ID)!.activate();
    // Other suites edit settings files on disk and in editors: settle that first (as workbench.test.ts does).
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await vscode.workspace.saveAll(false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('the first hook configuration', () => api.hookConfig.current !== undefined);
    // Project hooks run once approved: approve the fixture hook as the approval dialog would, and reload.
    const hook = api.hookConfig.current!.config.hooks.find((h) => h.source.kind === 'file' && h.source.jsonPath === 'hooks.PreToolUse[0].hooks[0]');
    assert.ok(hook, 'the fixture hook is loaded');
    if (!api.hookConfig.current!.applied.active.some((h) => h.hash === hook.hash)) {
      await api.hookConfig.approve([hook.hash]);
      writeFileSync(settingsFile(), readFileSync(settingsFile(), 'utf8'));
      await until('the approved fixture hook', () => api.hookConfig.current?.applied.active.some((h) => h.hash === hook.hash) === true, 15_000);
    }
  });
  suiteTeardown(async () => {
    await Promise.resolve(vscode.workspace.getConfiguration().update('hookwise.hooks.disabled', undefined, vscode.ConfigurationTarget.Workspace)).catch(
      () => undefined,
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a run shows in the lens and hover; the command links to its file; Run with Sample Input runs it; Disable writes the switch', async function () {
    const uri = vscode.Uri.file(settingsFile());
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const before = runCount(await titles(uri));
    assert.ok(!Number.isNaN(before), `a stats lens: ${JSON.stringify(await titles(uri))}`);

    // Two real runs through the extension's runner (the one the agent uses): the lens counts them.
    for (const command of ['npm test', 'ls'])
      await api.controller.runtime.runner.run('PreToolUse', bashHookInput('lens-it', command, 'toolu_lens'), {
        signal: AbortSignal.timeout(10_000),
        cwd: workspaceRoot(),
      });
    await until('the lens to count the runs', async () => runCount(await titles(uri)) === before + 2);
    const all = await titles(uri);
    const stats = all.find((t) => /^\d+ runs? · last:/.test(t))!;
    assert.match(stats, /^\d+ runs · last: allow just now · median \d+ ms$/);
    assert.ok(all.includes('Run with Sample Input…') && all.includes('Show Runs') && all.includes('Disable'), JSON.stringify(all));

    // The hover on the command: the hook's id, the same stats, and that it runs.
    const text = doc.getText();
    const at = doc.positionAt(text.indexOf('"command": "') + '"command": "ec'.length);
    const hover = hoverText((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, at)) ?? []);
    assert.ok(hover.includes(HOOK_ID), hover);
    assert.ok(hover.includes(stats), hover);
    assert.match(hover, /✓ effective/);

    // The command names ./README.md, which exists: one link to it.
    const links = (await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', uri)) ?? [];
    const targets = links.map((l) => l.target?.fsPath);
    assert.deepEqual(targets, [path.join(workspaceRoot(), 'README.md')]);
    assert.equal(doc.getText(links[0]!.range), './README.md');

    // Run with Sample Input… starts from the last run's input and runs just this hook.
    const sample = await vscode.commands.executeCommand<{ decision: string; input: Record<string, unknown> }>(
      'hookwise.hookLens.runSample',
      HOOK_ID,
      bashHookInput('lens-it', 'git status', 'toolu_lens'),
    );
    assert.equal(sample?.decision, 'allow');

    // Show Runs filters Hook Runs to this hook with the view's search.
    const query = await vscode.commands.executeCommand<string>('hookwise.hookLens.showRuns', HOOK_ID);
    assert.equal(query, 'hook:config:.claude/settings.json hook:hooks.PreToolUse[0].hooks[0]');
    assert.equal(api.hookRuns.model.query, query);
    await vscode.commands.executeCommand('hookwise.hookRuns.search', '');

    // The Disable lens writes the switch; the reload turns the lens into Enable and the hover says why it is skipped.
    try {
      await vscode.workspace.getConfiguration().update('hookwise.hooks.disabled', undefined, vscode.ConfigurationTarget.Workspace);
    } catch (error) {
      // Another suite's unsaved workspace settings editor blocks writes (see workbench.test.ts): run this suite alone.
      console.warn(`skipped the switch: workspace settings not writable here (${String(error)})`);
      return;
    }
    const disable = (await lenses(uri)).find((l) => l.command?.title === 'Disable')!;
    // A write can race another edit of the same settings file ("the file is newer"): the command reports it; try again.
    await retry(
      () => vscode.commands.executeCommand(disable.command!.command, ...(disable.command!.arguments ?? [])),
      () => (vscode.workspace.getConfiguration().get<string[]>('hookwise.hooks.disabled') ?? []).includes(switchId()),
    );
    assert.deepEqual(vscode.workspace.getConfiguration().get('hookwise.hooks.disabled'), [switchId()]);
    await until('the reload with the hook switched off', () => api.hookConfig.current?.config.disabledHookIds?.has(switchId()) === true);
    await until('the Enable lens', async () => (await titles(uri)).includes('Enable'));
    const offHover = hoverText((await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, at)) ?? []);
    assert.match(offHover, /skipped: switched off in hookwise\.hooks\.disabled/);
    const enable = (await lenses(uri)).find((l) => l.command?.title === 'Enable')!;
    await retry(
      () => vscode.commands.executeCommand(enable.command!.command, ...(enable.command!.arguments ?? [])),
      () => !(vscode.workspace.getConfiguration().get<string[]>('hookwise.hooks.disabled') ?? []).includes(switchId()),
    );
    assert.deepEqual(vscode.workspace.getConfiguration().get('hookwise.hooks.disabled'), []);
  });

  test('Run with Sample Input… opens the input in an editor; its Run lens runs the edited input and each result opens rendered in its own tab', async function () {
    await until('the hook on', () => api.hookConfig.current?.config.disabledHookIds === undefined, 15_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // One real run first: the editor starts from the hook's last run input.
    await api.controller.runtime.runner.run('PreToolUse', bashHookInput('lens-sample', 'npm run lint', 'toolu_sample'), {
      signal: AbortSignal.timeout(10_000),
      cwd: workspaceRoot(),
    });
    await until('the run counted', async () => {
      const uri = vscode.Uri.file(settingsFile());
      await vscode.workspace.openTextDocument(uri);
      return (await titles(uri)).some((t) => /· last: allow/.test(t));
    });

    const nothing = await vscode.commands.executeCommand('hookwise.hookLens.runSample', HOOK_ID);
    assert.equal(nothing, undefined, 'nothing runs before the user asks');
    await until('the input editor', () => vscode.window.activeTextEditor?.document.uri.fsPath.endsWith('.hook-input.json') === true);
    const editor = vscode.window.activeTextEditor!;
    const opened = JSON.parse(editor.document.getText()) as { tool_name: string; tool_input: { command: string } };
    assert.equal(opened.tool_name, 'Bash');
    assert.equal(opened.tool_input.command, 'npm run lint', 'it starts from the last run input');

    // The user edits the command and runs the input with the lens above it.
    const at = editor.document.getText().indexOf('npm run lint');
    await editor.edit((e) => e.replace(new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + 'npm run lint'.length)), 'git log'));
    const inputLenses = await lenses(editor.document.uri);
    assert.deepEqual(
      inputLenses.map((l) => l.command?.title),
      ['$(play) Run Hook with This Input', HOOK_ID],
    );
    const run = inputLenses[0]!.command!;
    const result = await vscode.commands.executeCommand<{ decision: string; input: { tool_input: { command: string } }; page: vscode.Uri }>(
      run.command,
      ...(run.arguments ?? []),
    );
    assert.equal(result?.decision, 'allow');
    assert.equal(result.input.tool_input.command, 'git log', 'the edited input ran');
    assert.equal(editor.document.isDirty, false, 'the input was saved, so closing its tab asks nothing');
    await until('the result tab', () => resultTabs().length === 1);
    const page = (await vscode.workspace.openTextDocument(result.page)).getText();
    assert.match(page, /^# Run with Sample Input: PreToolUse/);
    assert.ok(page.includes('| Decision | **allow** |'), page);
    assert.ok(page.includes('| Exit code | 0 |'), page);
    assert.match(page, /\| Hook time \| \d+ ms \|/);
    assert.match(page, /## stdout\n\n```text\n\{.*permissionDecision.*\n```/);
    assert.ok(page.includes('"command": "git log"'), page);

    // Again (the editor title's ▶ runs the active input editor): a second result tab, the first stays.
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand(run.command);
    await until('a second result tab', () => resultTabs().length === 2);
    assert.ok(
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .some((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === editor.document.uri.fsPath),
    );
  });
});

/** The open result pages of Run with Sample Input, rendered (Markdown preview tabs). */
function resultTabs(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('markdown.preview') && t.label.includes('Sample run - PreToolUse'))
    .map((t) => t.label);
}
