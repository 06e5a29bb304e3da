import type { AnyAgentTool, ToolResult } from '../agent/tools/tool';
import { toolError } from '../agent/tools/tool';
import { describeThrown, thrownMessage } from '../shared/describeThrown';
import type { McpClient, McpClientLoader } from './loadMcpClient';
import { loadMcpClient } from './loadMcpClient';
import type { ElicitationHandler, McpServerStatus } from './mcpConnection';
import { mapCallToolResult } from './mcpResultMapping';
import type { McpServerDefinition } from './mcpServerConfig';
import type { McpToolProblem } from './mcpTool';
import { createMcpTool } from './mcpTool';
import { assignToolNames } from './mcpToolNames';
import type { McpServerConnection } from './unavailableMcpConnection';
import { UnavailableMcpConnection } from './unavailableMcpConnection';
import { raceAbort } from '../shared/raceAbort';

/** How long all servers get to start, together (Claude Code's MCP_TIMEOUT default is 30 s). */
export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000;
/** How long one tool call may take (Claude Code's MCP_TOOL_TIMEOUT is long; progress resets it). */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 10 * 60_000;

/** What the manager is built with. */
export interface McpServerManagerOptions {
  /** Working directory of stdio servers. */
  readonly cwd: string;
  /** The environment stdio servers inherit. */
  readonly env: NodeJS.ProcessEnv;
  readonly startTimeoutMs?: number;
  readonly callTimeoutMs?: number;
  /** `hookwise.mcp.trustReadOnlyHint`: a tool marked `readOnlyHint` runs without asking. */
  readonly trustReadOnlyHint?: () => boolean;
  readonly elicit?: ElicitationHandler;
  /** Loads the MCP SDK's bundle (tests replace it); by default {@link loadMcpClient}. */
  readonly loadClient?: McpClientLoader;
}

/**
 * The MCP servers of a runtime: started when a session needs them (all in parallel, within
 * one timeout), their tools offered as `mcp__<server>__<tool>` agent tools, a crashed server
 * started again on its next use, a `tools/list_changed` reflected in the next step's tool set,
 * and every server (and its process group) stopped by {@link dispose}. Owned by the runtime.
 * The MCP SDK (its own bundle) is loaded by the first {@link setServers} that names a server;
 * when it cannot be, each server is `failed` with the reason and the agent works without them.
 */
export class McpServerManager {
  private readonly connections = new Map<string, McpServerConnection>();
  private client: McpClient | undefined;
  /** Counts {@link setServers} calls: one that waited for the client loses to a later one. */
  private generation = 0;
  /** The latest {@link setServers} until it has applied (it may be waiting for the client to load). */
  private applying: Promise<void> = Promise.resolve();
  /** The latest {@link setServers} named at least one server. */
  private wanted = false;
  private cachedTools: readonly AnyAgentTool[] | undefined;
  private problems: McpToolProblem[] = [];
  private readonly listeners = new Set<() => void>();
  private disposed = false;

  constructor(private readonly o: McpServerManagerOptions) {}

  /**
   * Makes `servers` the configured set: a server whose definition changed or that is gone is
   * stopped; new ones start on the next {@link ensureStarted}. Resolves when removed ones are
   * stopped. A call superseded by a later one while the client loads changes nothing.
   */
  setServers(servers: readonly McpServerDefinition[]): Promise<void> {
    this.wanted = servers.length > 0;
    const applied = this.apply(servers);
    this.applying = applied.catch(() => undefined);
    return applied;
  }

  private async apply(servers: readonly McpServerDefinition[]): Promise<void> {
    const generation = ++this.generation;
    let unavailable: string | undefined;
    if (servers.length > 0 && !this.client) {
      try {
        this.client = await (this.o.loadClient ?? loadMcpClient)();
      } catch (error) {
        unavailable = thrownMessage(error);
      }
      if (generation !== this.generation || this.disposed) return;
    }
    const client = this.client;
    const wanted = new Map(servers.map((s) => [s.name, s] as const));
    const stopping: Promise<void>[] = [];
    for (const [name, conn] of this.connections) {
      const next = wanted.get(name);
      // A server left without a client gets a real connection once the client loads.
      const stale = client !== undefined && conn instanceof UnavailableMcpConnection;
      if (next && !stale && next.hash === conn.definition.hash && sameLaunch(next, conn.definition)) continue;
      this.connections.delete(name);
      stopping.push(conn.close());
    }
    for (const server of [...wanted.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      if (this.connections.has(server.name)) continue;
      this.connections.set(
        server.name,
        client
          ? new client.McpConnection(server, {
              cwd: this.o.cwd,
              env: this.o.env,
              onChange: () => this.changed(),
              ...(this.o.elicit ? { elicit: this.o.elicit } : {}),
            })
          : new UnavailableMcpConnection(server, unavailable ?? 'the MCP client is not loaded'),
      );
    }
    this.changed();
    await Promise.all(stopping);
  }

  /** True when at least one server is configured (also while the client that runs them loads). */
  get hasServers(): boolean {
    return this.connections.size > 0 || this.wanted;
  }

  /**
   * Starts every server that is stopped or crashed (not the failed ones: {@link restart} retries
   * those), in parallel, within the start timeout, and waits for those already starting. A
   * configuration still being applied (the MCP client loading: a prompt sent just after the
   * window opened) is waited for first, so the first model call sees the servers' tools.
   * Never throws; failures are in {@link statuses}.
   */
  async ensureStarted(signal: AbortSignal): Promise<void> {
    if (this.disposed) return;
    const timeout = this.o.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS;
    const both = AbortSignal.any([signal, AbortSignal.timeout(timeout)]);
    await raceAbort(this.applying, both).catch(() => undefined);
    if (this.disposed || both.aborted) return;
    const startable = new Set(['stopped', 'crashed', 'starting']);
    await Promise.all([...this.connections.values()].filter((c) => startable.has(c.status.state)).map((c) => c.start(both, timeout)));
  }

  /** Stops and starts one server again (the UI's Restart, or a failed server retried). */
  async restart(name: string, signal: AbortSignal): Promise<void> {
    const conn = this.connections.get(name);
    if (!conn) return;
    await conn.close();
    await conn.start(signal, this.o.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS);
  }

  /** Every server's status, by name. */
  statuses(): McpServerStatus[] {
    return [...this.connections.values()].map((c) => c.status);
  }

  /** The pids of running stdio servers (tests). */
  pids(): number[] {
    return [...this.connections.values()].flatMap((c) => (c.pid === undefined ? [] : [c.pid]));
  }

  /** Tools that were not offered because their schema is broken. */
  toolProblems(): readonly McpToolProblem[] {
    this.tools();
    return this.problems;
  }

  /**
   * The agent tools of every server that listed tools (a crashed one keeps its last list, so a
   * call restarts it), named deterministically: servers by name, tools in listed order.
   */
  tools(): readonly AnyAgentTool[] {
    if (this.cachedTools) return this.cachedTools;
    // Only connections of a loaded client list tools: without it there are none.
    const compile = this.client?.compileInputSchema;
    if (!compile) return (this.cachedTools = []);
    const conns = [...this.connections.values()].sort((a, b) => a.name.localeCompare(b.name));
    const keys = conns.flatMap((c) => c.tools.map((t) => ({ conn: c, tool: t, server: c.name })));
    const names = assignToolNames(keys.map((k) => ({ server: k.server, tool: k.tool.name })));
    const tools: AnyAgentTool[] = [];
    const problems: McpToolProblem[] = [];
    const trust = this.o.trustReadOnlyHint?.() ?? false;
    keys.forEach((k, i) => {
      const made = createMcpTool(k.server, k.tool, names[i] ?? k.tool.name, (server, tool, args, signal) => this.callTool(server, tool, args, signal), {
        trustReadOnlyHint: trust,
        compile,
      });
      if ('execute' in made) tools.push(made);
      else problems.push(made);
    });
    this.problems = problems;
    this.cachedTools = tools;
    return tools;
  }

  /** Called with no arguments whenever a server's state or tools change. Returns the unsubscribe. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops every server and its process group; the manager is unusable afterwards. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
    this.listeners.clear();
  }

  /**
   * Calls `tool` (its own name) on `server`, starting the server when it is not running
   * (crashed, or never started in this session). Used by the MCP tools and by `mcp_tool` hooks.
   */
  async callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const conn = this.connections.get(server);
    if (!conn || this.disposed) return toolError(`MCP server "${server}" is no longer configured.`);
    if (conn.status.state !== 'ready') {
      // A crashed server is started again on its next use (a failed one too: the user may have fixed it).
      await conn.start(
        AbortSignal.any([signal, AbortSignal.timeout(this.o.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS)]),
        this.o.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS,
      );
      const after = conn.status;
      if (after.state !== 'ready') return toolError(`MCP server "${server}" is not running: ${after.error ?? after.state}`);
    }
    try {
      return mapCallToolResult(await conn.callTool(tool, args, signal, this.o.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS));
    } catch (error) {
      if (signal.aborted) return toolError(`${tool} on MCP server "${server}" was cancelled.`);
      return toolError(`MCP server "${server}" tool ${tool} failed: ${describeThrown(error)}`);
    }
  }

  private changed(): void {
    this.cachedTools = undefined;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's bug must not stop the others.
      }
    }
  }
}

function sameLaunch(a: McpServerDefinition, b: McpServerDefinition): boolean {
  // The hash covers the entry as written; expanded variables may differ between loads.
  return JSON.stringify({ ...a, scope: '', displayFile: '' }) === JSON.stringify({ ...b, scope: '', displayFile: '' });
}
