import * as vscode from 'vscode';

/** An item of the "Hook Runs" tree. */
export type HookRunsNode = { readonly kind: 'empty'; readonly label: string };

/**
 * The "Hook Runs" tree: every hook execution, live, per agent and subagent. This first
 * slice shows a placeholder until the engine reports runs.
 */
export class HookRunsTreeProvider implements vscode.TreeDataProvider<HookRunsNode>, vscode.Disposable {
  static readonly viewId = 'hookwise.hookRuns';
  private readonly changed = new vscode.EventEmitter<HookRunsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  getTreeItem(node: HookRunsNode): vscode.TreeItem {
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon('info');
    return item;
  }

  getChildren(node?: HookRunsNode): HookRunsNode[] {
    if (node) return [];
    return [{ kind: 'empty', label: 'No hook has run yet' }];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
