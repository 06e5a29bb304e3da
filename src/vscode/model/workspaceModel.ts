import * as vscode from 'vscode';
import { API_KEY_SECRET } from './apiKey';
import { modelFromSettings, SwitchableModelClient, type ModelResolution } from './modelFromSettings';

/** What the workspace's model is resolved from. */
export interface WorkspaceModelDeps {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly apiKey: () => Promise<string | undefined>;
  readonly createLm?: (name: string) => Promise<ModelResolution>;
  /** Called with the model's label after every reload (the chat header). */
  readonly onModelChanged: (label: string) => void;
}

/**
 * The agent's model as the settings say, kept current: `client` is handed to the runtime
 * once and switches underneath when `hookwise.model.*` or the API key changes.
 */
export class WorkspaceModel implements vscode.Disposable {
  readonly client = new SwitchableModelClient();
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly deps: WorkspaceModelDeps) {
    this.disposables = [
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('hookwise.model') && void this.reload()),
      deps.context.secrets.onDidChange((e) => e.key === API_KEY_SECRET && void this.reload()),
    ];
    void this.reload();
  }

  /** Re-reads the model settings. */
  async reload(): Promise<void> {
    const { context, apiKey, createLm } = this.deps;
    const resolution = await modelFromSettings({
      workspaceRoot: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      extensionUri: context.extensionUri,
      apiKey,
      ...(createLm ? { createLm } : {}),
    });
    this.client.set(resolution);
    if (!resolution.ok) this.deps.log.info(`model: ${resolution.problem}`);
    this.deps.onModelChanged(this.client.label);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
