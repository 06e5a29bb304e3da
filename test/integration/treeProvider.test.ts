/**
 * The Hook Runs tree provider inside the real extension host: records fed through the
 * HookRunObserver become sessions → agents → occurrences → runs with the right TreeItems,
 * refreshes are targeted and throttled, and "Go to Hook Definition" selects the handler.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookRunRecord } from '../../src/hooks/hookRunTypes';
import { HookRunsTreeProvider, type HookRunsNode } from '../../src/vscode/tree/hookRunsTreeProvider';
import { goToDefinition } from '../../src/vscode/tree/hookRunsView';
import { record as baseRecord } from '../support/hookRunFixtures';

/** The shared fixture, with a long session id (the tree shortens it) and a start of now. */
function record(overrides: Partial<HookRunRecord> = {}): HookRunRecord {
  return baseRecord({ sessionId: 'session-1234567890', startedAt: Date.now(), ...overrides });
}

const label = (item: vscode.TreeItem): string => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));
const iconId = (item: vscode.TreeItem): string | undefined => (item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined);

function outline(provider: HookRunsTreeProvider, node?: HookRunsNode, depth = 0): string[] {
  return provider.getChildren(node).flatMap((child) => {
    const item = provider.getTreeItem(child);
    const description = typeof item.description === 'string' && item.description ? ` [${item.description}]` : '';
    return [`${'  '.repeat(depth)}${label(item)}${description}`, ...outline(provider, child, depth + 1)];
  });
}

suite('Hook Runs tree provider', () => {
  let provider: HookRunsTreeProvider;

  setup(() => {
    provider = new HookRunsTreeProvider({ throttleMs: 20 });
  });

  teardown(() => provider.dispose());

  test('is empty before any hook runs (the view shows its welcome text)', () => {
    assert.deepEqual(provider.getChildren(), []);
  });

  test('shows a running hook with a spinner, then its decision and duration', () => {
    provider.onHookStarted(record());
    const [session] = provider.getChildren();
    const [agent] = provider.getChildren(session);
    const [occurrence] = provider.getChildren(agent);
    const [run] = provider.getChildren(occurrence);
    assert.ok(session && agent && occurrence && run);
    assert.equal(label(provider.getTreeItem(agent)), 'main agent');
    assert.equal(label(provider.getTreeItem(occurrence)), 'PreToolUse · Bash · npm test');
    assert.equal(iconId(provider.getTreeItem(occurrence)), 'loading~spin');
    const running = provider.getTreeItem(run);
    assert.equal(label(running), './check.sh');
    assert.equal(running.description, 'running…');
    assert.equal(iconId(running), 'loading~spin');
    assert.equal(running.contextValue, 'hookRun');
    assert.equal(running.command?.command, 'hookwise.hookRuns.openRun');

    provider.onHookFinished(record({ status: 'blocked', durationMs: 12, outcome: { decision: 'deny', reason: 'tests first' } }));
    const done = provider.getTreeItem(run);
    assert.equal(done.description, 'deny · 12 ms');
    assert.equal(iconId(done), 'circle-slash');
    const tooltip = done.tooltip as vscode.MarkdownString;
    assert.ok(tooltip instanceof vscode.MarkdownString);
    assert.match(tooltip.value, /settings\\\.json › hooks\\\.PreToolUse\\\[0\\\]\\\.hooks\\\[0\\\]/);
    assert.match(tooltip.value, /tests first/);
    assert.equal(provider.getTreeItem(occurrence).description, '1 hook · deny');
  });

  test('shows asked → allow and failures with their icons', () => {
    provider.onHookFinished(record({ runId: 'a', status: 'asked', durationMs: 3200, permission: { decision: 'allow', decidedBy: 'user' } }));
    provider.onHookFinished(record({ runId: 'f', hookLabel: 'built-in: max steps', status: 'failed', durationMs: 5, error: 'exit 1' }));
    const [session] = provider.getChildren();
    const [agent] = provider.getChildren(session);
    const [occurrence] = provider.getChildren(agent);
    const items = provider.getChildren(occurrence).map((n) => provider.getTreeItem(n));
    assert.deepEqual(
      items.map((i) => [label(i), i.description, iconId(i)]),
      [
        ['./check.sh', 'asked → allow · 3.2 s', 'question'],
        ['built-in: max steps', 'failed · 5 ms', 'error'],
      ],
    );
  });

  test('nests subagents under their parent with type and description', () => {
    provider.onHookStarted(record({ runId: 'm', occurrenceId: 'om' }));
    provider.observeAgentEvent({
      type: 'runStarted',
      agent: { agentId: 'sub', parentAgentId: 'main', agentType: 'Explore' },
      description: 'find the tests',
      parentToolUseId: 'call_1',
    });
    provider.onHookStarted(
      record({
        runId: 's',
        occurrenceId: 'os',
        agentId: 'sub',
        parentAgentId: 'main',
        agentType: 'Explore',
        event: 'SubagentStart',
        matchValue: 'Explore',
        input: {},
      }),
    );
    assert.deepEqual(outline(provider).slice(1), [
      '  main agent',
      '    PreToolUse · Bash · npm test [1 hook · running…]',
      '      ./check.sh [running…]',
      '    Explore [find the tests]',
      '      SubagentStart · Explore [1 hook · running…]',
      '        ./check.sh [running…]',
    ]);
    const [session] = provider.getChildren();
    const [main] = provider.getChildren(session);
    const sub = provider.getChildren(main)[1];
    assert.ok(sub);
    assert.equal(provider.getParent(sub), main);
    assert.equal(provider.getParent(main!), session);
  });

  test('fires targeted, throttled refreshes (the changed nodes, not the root)', async () => {
    provider.onHookStarted(record());
    provider.flush();
    const fired: (HookRunsNode | HookRunsNode[] | undefined)[] = [];
    const sub = provider.onDidChangeTreeData((e) => fired.push(e));
    try {
      for (let i = 0; i < 50; i++) provider.onHookFinished(record({ status: 'ok', durationMs: i }));
      assert.equal(fired.length, 0, 'no synchronous refresh per event');
      await new Promise((r) => setTimeout(r, 60));
      assert.equal(fired.length, 1, 'one coalesced refresh');
      const batch = fired[0];
      assert.ok(Array.isArray(batch));
      // The run's event row is refreshed (its summary and spinner depend on its runs, and
      // refreshing it redraws the run under it) — never the root.
      assert.deepEqual(
        batch.map((n) => n.kind),
        ['occurrence'],
      );
    } finally {
      sub.dispose();
    }
  });

  test('filters to blocked / asked / failed runs', () => {
    provider.onHookFinished(record({ runId: 'ok', occurrenceId: 'o1', status: 'ok', durationMs: 1 }));
    provider.onHookFinished(record({ runId: 'no', occurrenceId: 'o2', status: 'blocked', durationMs: 1, outcome: { decision: 'deny' } }));
    provider.setFilter('attention');
    const [session] = provider.getChildren();
    const [agent] = provider.getChildren(session);
    assert.equal(provider.getChildren(agent).length, 1);
    provider.setFilter('all');
    assert.equal(provider.getChildren(agent).length, 2);
  });

  test('keeps at most maxRunsPerSession runs', () => {
    const small = new HookRunsTreeProvider({ maxRunsPerSession: 2 });
    try {
      for (let i = 0; i < 5; i++) small.onHookStarted(record({ runId: `r${i}`, occurrenceId: `o${i}` }));
      assert.equal(small.model.runCount('session-1234567890'), 2);
    } finally {
      small.dispose();
    }
  });

  test('"Go to Hook Definition" opens the source file with the handler selected', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    const file = path.join(folder.uri.fsPath, '.claude', 'settings.json');
    await goToDefinition(
      record({ source: { kind: 'file', scope: 'project', file, displayFile: '.claude/settings.json', jsonPath: 'hooks.PreToolUse[0].hooks[0]' } }),
    );
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.equal(editor.document.uri.fsPath, file);
    const selected = editor.document.getText(editor.selection);
    assert.ok(selected.startsWith('{') && selected.includes('"type": "command"') && selected.endsWith('}'), selected);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('hides built-in limit hooks that decided nothing; "Show Built-in Hooks" in the view menu shows them', async () => {
    const builtin = (overrides: Partial<HookRunRecord>): HookRunRecord =>
      record({
        event: 'BeforeStep',
        matchValue: undefined,
        hookId: 'builtin.maxSteps',
        hookLabel: 'built-in: max steps',
        actionKind: 'callable',
        source: { kind: 'code', label: 'built-in limits' },
        input: { hook_event_name: 'BeforeStep', step_index: 1 },
        ...overrides,
      });
    provider.onHookFinished(builtin({ runId: 'b1', occurrenceId: 's1', status: 'ok', durationMs: 0 }));
    provider.onHookFinished(builtin({ runId: 'b2', occurrenceId: 's2', status: 'ok', durationMs: 0, input: { step_index: 2 } }));
    assert.deepEqual(outline(provider), [], 'built-in hooks that decided nothing are hidden by default');
    provider.onHookFinished(
      builtin({ runId: 'b3', occurrenceId: 's3', status: 'ok', durationMs: 0, outcome: { decision: 'stop', reason: 'Reached the maximum of 2 steps' } }),
    );
    assert.deepEqual(outline(provider).slice(1), ['  main agent', '    BeforeStep [1 hook · stop]', '      built-in: max steps [stop · 0 ms]']);
    provider.setShowBuiltin(true);
    assert.equal(outline(provider).filter((line) => line.includes('built-in: max steps')).length, 3);

    // The real extension contributes the toggle to the Hook Runs title menu, both ways round.
    const extension = vscode.extensions.all.find((e) => e.packageJSON?.name === 'hookwise');
    assert.ok(extension);
    const menu = (extension.packageJSON.contributes.menus['view/title'] as { command: string; when: string }[]).filter((m) => m.command.includes('Builtin'));
    assert.deepEqual(
      menu.map((m) => [m.command, m.when]),
      [
        ['hookwise.hookRuns.showBuiltin', 'view == hookwise.hookRuns && !hookwise.hookRuns.showBuiltin'],
        ['hookwise.hookRuns.hideBuiltin', 'view == hookwise.hookRuns && hookwise.hookRuns.showBuiltin'],
      ],
    );
    await extension.activate();
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('hookwise.hookRuns.showBuiltin') && commands.includes('hookwise.hookRuns.hideBuiltin'));
    await vscode.commands.executeCommand('hookwise.hookRuns.hideBuiltin');
  });

  test('"Collapse Undecided Events into Their Steps" folds the events where no hook decided into one row per step', () => {
    provider.onHookFinished(
      record({
        runId: 'b1',
        occurrenceId: 'step1',
        event: 'BeforeStep',
        matchValue: undefined,
        hookId: 'builtin.maxSteps',
        hookLabel: 'built-in: max steps',
        actionKind: 'callable',
        source: { kind: 'code', label: 'built-in limits' },
        input: { hook_event_name: 'BeforeStep', step_index: 1 },
        status: 'ok',
      }),
    );
    provider.onHookFinished(record({ runId: 'a', occurrenceId: 'pre', status: 'ok', durationMs: 3 }));
    provider.onHookFinished(record({ runId: 'b', occurrenceId: 'post', event: 'PostToolUse', status: 'ok', durationMs: 4 }));
    provider.onHookFinished(
      record({
        runId: 'c',
        occurrenceId: 'stop',
        event: 'Stop',
        matchValue: undefined,
        status: 'blocked',
        outcome: { decision: 'continue', reason: 'tests fail' },
      }),
    );
    provider.setGroupQuiet(true);
    const lines = outline(provider).slice(1);
    assert.deepEqual(lines.slice(0, 2), ['  main agent', '    Step 1 [2 events · no decision]']);
    assert.ok(lines[2]?.startsWith('      PreToolUse · Bash · npm test'), lines.join('\n'));
    assert.ok(
      lines.some((l) => l.startsWith('    Stop')),
      `the deciding Stop stays in view:\n${lines.join('\n')}`,
    );
    const [session] = provider.getChildren();
    const [agent] = provider.getChildren(session);
    const step = provider.getChildren(agent)[0];
    assert.ok(step);
    assert.equal(provider.getTreeItem(step).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    provider.setGroupQuiet(false);
    assert.ok(!outline(provider).some((l) => l.includes('Step 1')));
  });
});
