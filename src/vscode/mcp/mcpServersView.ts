import { readFile, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { McpServerManager } from '../../mcp/mcpServerManager';
import type { McpServerStatus } from '../../mcp/mcpConnection';
import { parseBoundedJson } from '../../shared/boundedJson';
import { thrownMessage } from '../../shared/describeThrown';
import { projectMcpJsonPath, type McpService } from './mcpService';

/** Ids contributed in package.json. */
export const MCP_VIEW_ID = 'hookwise.mcpServers';
export const MCP_COMMANDS = {
  restart: 'hookwise.mcp.restartServer',
  showLog: 'hookwise.mcp.showServerLog',
  showTools: 'hookwise.mcp.showServerTools',
  add: 'hookwise.mcp.addServer',
  review: 'hookwise.mcp.reviewServers',
} as const;

type Node = { readonly kind: 'server'; readonly status: McpServerStatus } | { readonly kind: 'tool'; readonly name: string; readonly description?: string };

const STATE_TEXT: Record<McpServerStatus['state'], string> = {
  stopped: 'not started',
  starting: 'starting…',
  ready: 'ready',
  failed: 'failed',
  crashed: 'exited (restarts on next use)',
};

/** The "MCP Servers" tree: one row per server with its state, tools beneath; refreshes as servers change. */
class McpServersTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly manager: McpServerManager) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.manager.statuses().map((status) => ({ kind: 'server', status }));
    if (node.kind !== 'server') return [];
    const prefix = `mcp__${node.status.name.replace(/[^a-zA-Z0-9_-]/g, '_')}__`;
    return this.manager
      .tools()
      .filter((t) => t.name.startsWith(prefix))
      .map((t) => ({ kind: 'tool', name: t.name, description: t.description }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'tool') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
      item.tooltip = node.description;
      item.iconPath = new vscode.ThemeIcon('tools');
      return item;
    }
    const s = node.status;
    const item = new vscode.TreeItem(s.name, s.toolCount > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `mcp:${s.name}`;
    item.description = s.state === 'ready' ? `ready · ${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}` : STATE_TEXT[s.state];
    item.contextValue = `mcpServer.${s.state}`;
    const icon =
      s.state === 'ready' ? 'pass' : s.state === 'failed' || s.state === 'crashed' ? 'error' : s.state === 'starting' ? 'loading~spin' : 'circle-outline';
    item.iconPath = new vscode.ThemeIcon(icon);
    const tooltip = new vscode.MarkdownString(`**${s.name}** (${s.transport}, ${s.displayFile})\n\n${item.description}`);
    if (s.error) tooltip.appendMarkdown(`\n\n${s.error}`);
    if (s.stderrTail) tooltip.appendCodeblock(s.stderrTail.split('\n').slice(-10).join('\n'), 'text');
    item.tooltip = tooltip;
    return item;
  }
}

/**
 * Registers the MCP Servers view and its commands (restart, show log, show tools, add a
 * server, review project servers). Everything returned is owned by the caller's subscriptions.
 */
export function registerMcpServersView(deps: {
  readonly manager: McpServerManager;
  readonly service: McpService;
  readonly log: vscode.LogOutputChannel;
  readonly projectDir: string;
  readonly workspaceState: vscode.Memento;
}): vscode.Disposable[] {
  const tree = new McpServersTree(deps.manager);
  const unsubscribe = deps.manager.onDidChange(() => tree.refresh());
  const statusOf = (arg: unknown): McpServerStatus | undefined => {
    const name = typeof arg === 'string' ? arg : (arg as Node | undefined)?.kind === 'server' ? (arg as { status: McpServerStatus }).status.name : undefined;
    return deps.manager.statuses().find((s) => s.name === name);
  };
  return [
    vscode.window.registerTreeDataProvider(MCP_VIEW_ID, tree),
    { dispose: unsubscribe },
    vscode.commands.registerCommand(MCP_COMMANDS.restart, async (arg: unknown) => {
      const s = statusOf(arg);
      if (s) await deps.manager.restart(s.name, AbortSignal.timeout(60_000));
    }),
    vscode.commands.registerCommand(MCP_COMMANDS.showLog, (arg: unknown) => {
      const s = statusOf(arg);
      if (!s) return;
      deps.log.info(
        `MCP server "${s.name}" (${s.transport}, ${s.displayFile}): ${STATE_TEXT[s.state]}${s.error ? ` — ${s.error}` : ''}\n${s.stderrTail ?? '(no stderr)'}`,
      );
      deps.log.show(true);
    }),
    vscode.commands.registerCommand(MCP_COMMANDS.showTools, async (arg: unknown) => {
      const s = statusOf(arg);
      if (!s) return;
      const prefix = `mcp__${s.name.replace(/[^a-zA-Z0-9_-]/g, '_')}__`;
      const items = deps.manager
        .tools()
        .filter((t) => t.name.startsWith(prefix))
        .map((t) => ({ label: t.name, detail: t.description }));
      await vscode.window.showQuickPick(items, { title: `Tools of MCP server ${s.name}` });
    }),
    vscode.commands.registerCommand(MCP_COMMANDS.review, () => deps.service.review()),
    vscode.commands.registerCommand(MCP_COMMANDS.add, () => addMcpServer(deps)),
  ];
}

/** "Hookwise: Add MCP Server…": name, command line or URL, and where to keep it; the written entry counts as approved. */
async function addMcpServer(deps: {
  readonly log: vscode.LogOutputChannel;
  readonly projectDir: string;
  readonly workspaceState: vscode.Memento;
  readonly service: McpService;
}): Promise<void> {
  const name = await vscode.window.showInputBox({
    title: 'Add MCP Server (1/3)',
    prompt: 'Server name (tools appear as mcp__<name>__<tool>)',
    validateInput: (v) => (/^[a-zA-Z0-9_-]{1,64}$/.test(v) ? undefined : 'letters, digits, _ and - only'),
  });
  if (!name) return;
  const target = await vscode.window.showInputBox({
    title: 'Add MCP Server (2/3)',
    prompt: 'A command line (npx -y @modelcontextprotocol/server-memory) or an http(s) URL (Streamable HTTP)',
    validateInput: (v) => (v.trim() === '' ? 'required' : undefined),
  });
  if (!target) return;
  const where = await vscode.window.showQuickPick(
    [
      { label: 'Project (.mcp.json)', id: 'project' as const, detail: 'shared with the repository, like Claude Code' },
      { label: 'User settings (hookwise.mcp.servers)', id: 'user' as const, detail: 'only for you, in every workspace' },
    ],
    { title: 'Add MCP Server (3/3)' },
  );
  if (!where) return;
  const trimmed = target.trim();
  const entry = /^https?:\/\//i.test(trimmed) ? { type: 'http', url: trimmed } : commandEntry(trimmed);
  try {
    if (where.id === 'user') {
      const config = vscode.workspace.getConfiguration('hookwise.mcp');
      const current = config.inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
      await config.update('servers', { ...current, [name]: entry }, vscode.ConfigurationTarget.Global);
    } else {
      const file = projectMcpJsonPath(deps.projectDir);
      const existing = await readFile(file, 'utf8').catch(() => undefined);
      const parsed = existing === undefined ? { ok: true as const, value: {} } : parseBoundedJson(existing);
      if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object') throw new Error(`${file} is not a JSON object; fix it first`);
      const doc = parsed.value as { mcpServers?: Record<string, unknown> };
      doc.mcpServers = { ...(doc.mcpServers ?? {}), [name]: entry };
      // The user typed this definition: that is approval of exactly it (with the scripts it runs, pinned when it loads).
      deps.service.approveWritten(name, entry);
      await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
    }
    deps.log.info(`added MCP server "${name}" to ${where.label}`);
    await deps.service.reload();
  } catch (error) {
    void vscode.window.showErrorMessage(`Could not add the MCP server: ${thrownMessage(error)}`);
  }
}

/** `npx -y pkg --flag` → `{command: 'npx', args: ['-y', 'pkg', '--flag']}` (split on spaces; quotes keep words together). */
function commandEntry(line: string): { command: string; args: string[] } {
  const words = [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  return { command: words[0] ?? line, args: words.slice(1) };
}
