import type * as vscode from 'vscode';
import type { AgentController } from './agentController';
import { registerMcpServersView } from './mcp/mcpServersView';
import { McpService } from './mcp/mcpService';

/**
 * MCP servers: read and trust-filtered now, started when a session first needs them; the MCP
 * Servers view. Owned by `context.subscriptions`. `onLoaded` runs once the first read settled.
 */
export function registerMcp(context: vscode.ExtensionContext, controller: AgentController, log: vscode.LogOutputChannel, onLoaded: () => void): McpService {
  const mcp = new McpService({ runtime: controller.runtime, log, workspaceState: context.workspaceState, projectDir: controller.projectDir });
  context.subscriptions.push(
    mcp,
    ...registerMcpServersView({
      manager: controller.runtime.mcp,
      service: mcp,
      log,
      projectDir: controller.projectDir,
      workspaceState: context.workspaceState,
    }),
  );
  void mcp.reload().finally(onLoaded);
  return mcp;
}
