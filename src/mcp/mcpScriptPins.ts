import path from 'node:path';
import { realpathLenientSync } from '../permissions/rulePaths';
import { pinScripts } from '../hooks/config/scriptPins';
import { definitionHash, type McpServerDefinition } from './mcpServerConfig';

/**
 * Script pinning for MCP servers, as for project hooks (docs/security.md): approving
 * `node server` or `python3 -m mytools` approves what those files say, so the workspace files
 * a stdio server runs (commandTargets.ts resolves them) are part of its approval key; an edit
 * asks again, and the agent may not change them without asking.
 */

/** `server` with the workspace files its command runs pinned into `hash`; remote servers and servers that run no workspace file are unchanged. Never throws. */
export async function withMcpScriptPins(server: McpServerDefinition, projectDir: string): Promise<McpServerDefinition> {
  if (server.transport !== 'stdio') return server;
  const cwd = path.resolve(projectDir, server.cwd ?? '.');
  const scripts = await pinScripts(server.command, projectDir, server.args, cwd);
  if (scripts.length === 0) return server;
  const hash = definitionHash({ v: 2, entry: server.entryHash ?? server.hash, scripts: scripts.map((p) => [p.path, p.digest, p.target ?? '']) });
  return { ...server, scripts, hash };
}

/** Every spelling of the scripts `servers` run (as named, symlink target, real path): writing one asks. */
export function mcpScriptPaths(servers: readonly McpServerDefinition[]): ReadonlySet<string> {
  const paths = new Set<string>();
  for (const server of servers)
    for (const pin of server.transport === 'stdio' ? (server.scripts ?? []) : []) {
      paths.add(pin.file);
      if (pin.target) paths.add(pin.target);
      paths.add(realpathLenientSync(pin.file));
    }
  return paths;
}
