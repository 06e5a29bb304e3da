import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HookwiseRuntime } from '../../runtime/hookwiseRuntime';
import { loadMcpConfig } from '../../mcp/mcpConfigSources';
import type { McpServerDefinition } from '../../mcp/mcpServerConfig';
import { filterMcpByTrust, type HeldMcpServer } from '../../mcp/mcpTrust';
import { describeMcpServerFull, mcpReviewMarkdown } from '../../mcp/mcpReview';
import { serverEntryHash } from '../../mcp/mcpServerConfig';
import { ReviewDocuments } from '../config/reviewDocuments';
import { PinnedScriptWatcher } from '../config/pinnedScriptWatcher';
import { thrownMessage } from '../../shared/describeThrown';
import { askWithReview, vscodeWorkspaceTrust, type WorkspaceTrustSource } from '../config/projectHookTrust';

/** workspaceState key of the approved project MCP server definitions (sha256 hashes). */
export const APPROVED_MCP_SERVERS_KEY = 'hookwise.approvedMcpServers';

/** What the MCP approval dialog is asked. */
export interface McpApprovalRequest {
  readonly message: string;
  /** Every server with every field when `complete`; else the first ones and how many more. */
  readonly detail: string;
  readonly complete: boolean;
  /** Opens the full review beside (every server, every field as written); resolves with its document. */
  readonly openReview: () => Thenable<vscode.TextDocument>;
}

/** The approval dialog: true only when the user chose to allow the listed servers. */
export type McpApprovalPrompt = (request: McpApprovalRequest) => Thenable<boolean>;

const ALLOW = 'Allow These Servers';
/** Most servers the modal lists in full. */
const MAX_DETAIL_SERVERS = 8;

/** The real dialog: the modal, and "Review All…" for the full list beside (projectHookTrust.ts). */
export const vscodeMcpApprovalPrompt: McpApprovalPrompt = async (request) => (await askWithReview(request, ALLOW)) === ALLOW;

/** What the service needs. */
export interface McpServiceOptions {
  readonly runtime: HookwiseRuntime;
  readonly log: vscode.LogOutputChannel;
  readonly workspaceState: vscode.Memento;
  readonly projectDir: string;
  readonly homeDir?: string;
  readonly trust?: WorkspaceTrustSource;
  readonly prompt?: McpApprovalPrompt;
}

/**
 * The VS Code side of MCP configuration: reads `~/.claude.json`, the workspace's `.mcp.json`
 * and `hookwise.mcp.servers` (reloading when they change), lets project servers start only
 * in a trusted workspace and once the user approved their exact definition (a modal listing
 * them; a changed definition asks again), and hands the result to the runtime.
 */
export class McpService implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly trust: WorkspaceTrustSource;
  private readonly prompt: McpApprovalPrompt;
  private held: HeldMcpServer[] = [];
  /** Hashes declined this window: not asked again until they change or the user reviews. */
  private readonly declined = new Set<string>();
  private asking = false;
  private loads = 0;
  /** Entry keys (name + definition) the user wrote with "Add MCP Server…": approved with their pinned scripts on the load that finds them. */
  private readonly written = new Set<string>();
  /** The full approval review ("Review All…"). */
  private readonly reviews = new ReviewDocuments('hookwise-mcp-review');
  /** Reloads when a script a server runs changes: its content is part of the approval. */
  private readonly scripts = new PinnedScriptWatcher(() => void this.reload());

  constructor(private readonly o: McpServiceOptions) {
    this.trust = o.trust ?? vscodeWorkspaceTrust;
    this.prompt = o.prompt ?? vscodeMcpApprovalPrompt;
    const reload = (): void => void this.reload();
    const home = o.homeDir ?? os.homedir();
    for (const [base, pattern] of [
      [o.projectDir, '.mcp.json'],
      [home, '.claude.json'],
    ] as const) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(base), pattern));
      this.disposables.push(watcher, watcher.onDidChange(reload), watcher.onDidCreate(reload), watcher.onDidDelete(reload));
    }
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hookwise.mcp')) reload();
      }),
      this.trust.onDidGrantWorkspaceTrust(reload),
      this.reviews,
      this.scripts,
    );
  }

  /** Project servers not running: untrusted workspace or not approved. */
  get heldServers(): readonly HeldMcpServer[] {
    return this.held;
  }

  /** Reads every source again and applies the trust-filtered servers; may ask to approve new project servers. */
  async reload(): Promise<void> {
    const load = ++this.loads;
    const setting = vscode.workspace.getConfiguration('hookwise.mcp').inspect<unknown>('servers');
    const loaded = await loadMcpConfig({
      homeDir: this.o.homeDir ?? os.homedir(),
      projectDir: this.o.projectDir,
      env: process.env,
      settingServers: setting?.globalValue,
      // VS Code drops a restricted setting's workspace value in an untrusted workspace; it still needs approval.
      workspaceSettingServers: this.trust.isTrusted ? (setting?.workspaceFolderValue ?? setting?.workspaceValue) : undefined,
      plugins: this.o.runtime.pluginRoots,
    });
    if (load !== this.loads) return;
    for (const p of loaded.problems) this.o.log.warn(`MCP: ${p.displayFile}${p.jsonPath ? ` › ${p.jsonPath}` : ''}: ${p.message}`);
    this.scripts.update(loaded.servers.map((server) => ({ scripts: server.transport === 'stdio' ? server.scripts : undefined })));
    const written = loaded.servers.filter((s) => s.scope === 'project' && s.entryHash !== undefined && this.written.has(s.entryHash));
    if (written.length > 0) {
      for (const s of written) this.written.delete(s.entryHash!);
      await this.o.workspaceState.update(APPROVED_MCP_SERVERS_KEY, [...new Set([...this.approvedHashes(), ...written.map((s) => s.hash)])]);
    }
    const approved = new Set(this.approvedHashes());
    const { runnable, held } = filterMcpByTrust(loaded.servers, { trusted: this.trust.isTrusted, approved });
    this.held = held;
    for (const h of held)
      this.o.log.info(
        `MCP server "${h.server.name}" (${h.server.displayFile}) is off: ${h.why === 'untrusted' ? 'the workspace is not trusted' : 'not approved yet'}`,
      );
    await this.o.runtime.setMcpServers(runnable);
    const toAsk = held.filter((h) => h.why === 'unapproved' && !this.declined.has(h.server.hash)).map((h) => h.server);
    if (toAsk.length > 0) void this.askApproval(toAsk);
  }

  /**
   * Approves a project server the user just wrote with "Add MCP Server…" (typing it is consent
   * to exactly it), once a reload finds it and pins the scripts it runs.
   */
  approveWritten(name: string, entry: unknown): void {
    this.written.add(serverEntryHash(name, entry));
  }

  /** "Hookwise: Review MCP Servers": asks about every held project server again. */
  async review(): Promise<void> {
    this.declined.clear();
    const unapproved = this.held.filter((h) => h.why === 'unapproved').map((h) => h.server);
    if (this.held.some((h) => h.why === 'untrusted'))
      void vscode.window.showInformationMessage('Hookwise: project MCP servers are off because this workspace is not trusted.');
    else if (unapproved.length === 0) void vscode.window.showInformationMessage('Hookwise: no project MCP server is waiting for approval.');
    else await this.askApproval(unapproved);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private approvedHashes(): string[] {
    const value = this.o.workspaceState.get<unknown>(APPROVED_MCP_SERVERS_KEY);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  }

  private async askApproval(servers: readonly McpServerDefinition[]): Promise<void> {
    if (this.asking) return;
    this.asking = true;
    try {
      const message = `This workspace defines ${servers.length} MCP server${servers.length === 1 ? '' : 's'}. Each runs as a program on your machine (or connects to a URL) and its tools become available to the agent. Allow ${servers.length === 1 ? 'it' : 'them'}?`;
      const complete = servers.length <= MAX_DETAIL_SERVERS;
      const listed = servers.slice(0, MAX_DETAIL_SERVERS).map(describeMcpServerFull);
      if (!complete)
        listed.push(`…and ${servers.length - MAX_DETAIL_SERVERS} more not listed here. Choose "Review All…" to read every server before allowing them.`);
      const request = {
        message,
        detail: listed.join('\n'),
        complete,
        openReview: () => this.reviews.show('Project MCP servers', mcpReviewMarkdown('Project MCP servers awaiting approval', servers)),
      };
      let allowed = false;
      try {
        allowed = await this.prompt(request);
      } catch (error) {
        this.o.log.warn(`the MCP approval dialog failed (${thrownMessage(error)}); the servers stay off`);
      }
      if (!allowed) {
        for (const s of servers) this.declined.add(s.hash);
        this.o.log.info(`project MCP servers stay off: ${servers.map((s) => s.name).join(', ')} (Hookwise: Review MCP Servers to approve)`);
        return;
      }
      await this.o.workspaceState.update(APPROVED_MCP_SERVERS_KEY, [...new Set([...this.approvedHashes(), ...servers.map((s) => s.hash)])]);
      this.o.log.info(`approved MCP servers: ${servers.map((s) => s.name).join(', ')}`);
    } finally {
      this.asking = false;
    }
    await this.reload();
  }
}

/** Where "Add MCP Server…" writes a project server. */
export function projectMcpJsonPath(projectDir: string): string {
  return path.join(projectDir, '.mcp.json');
}
