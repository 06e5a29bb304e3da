import type { McpServerDefinition } from './mcpServerConfig';

/** A server kept from starting, and why. */
export interface HeldMcpServer {
  readonly server: McpServerDefinition;
  readonly why: 'untrusted' | 'unapproved';
}

/** True for servers the workspace itself defines (`.mcp.json`, workspace `hookwise.mcp.servers`): code from the repository. */
export function isProjectServer(server: McpServerDefinition): boolean {
  return server.scope === 'project';
}

/**
 * The trust filter for MCP servers, as for project hooks (docs/security.md): user, local,
 * `--mcp-config` and user-setting servers start; a project server starts only in a trusted
 * workspace and once the user approved its exact definition (`hash`, re-asked on any change).
 */
export function filterMcpByTrust(
  servers: readonly McpServerDefinition[],
  trust: { readonly trusted: boolean; readonly approved?: ReadonlySet<string> },
): { readonly runnable: McpServerDefinition[]; readonly held: HeldMcpServer[] } {
  const runnable: McpServerDefinition[] = [];
  const held: HeldMcpServer[] = [];
  for (const server of servers) {
    if (!isProjectServer(server)) runnable.push(server);
    else if (!trust.trusted) held.push({ server, why: 'untrusted' });
    else if (trust.approved && !trust.approved.has(server.hash)) held.push({ server, why: 'unapproved' });
    else runnable.push(server);
  }
  return { runnable, held };
}

/** One line for the approval modal: `github: npx -y @modelcontextprotocol/server-github (.mcp.json)`. */
export function describeMcpServer(server: McpServerDefinition): string {
  const what = server.transport === 'stdio' ? [server.command, ...server.args].join(' ') : `${server.transport} ${server.url}`;
  const env = server.transport === 'stdio' && Object.keys(server.env).length > 0 ? ` env: ${Object.keys(server.env).join(', ')}` : '';
  return `${server.name}: ${what}${env} (${server.displayFile})`;
}
