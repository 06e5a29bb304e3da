import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, ElicitRequest, ElicitResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describeThrown } from '../shared/describeThrown';
import { GroupStdioTransport } from './groupStdioTransport';
import type { McpServerDefinition } from './mcpServerConfig';

/** Most tools read from one server (pages of `tools/list` are followed up to this). */
export const MAX_TOOLS_PER_SERVER = 500;

/** Where a server is in its life. `crashed`: it was ready and exited; the next use restarts it. */
export type McpServerState = 'stopped' | 'starting' | 'ready' | 'failed' | 'crashed';

/** What the UI and the CLI show for one server. */
export interface McpServerStatus {
  readonly name: string;
  readonly state: McpServerState;
  readonly transport: McpServerDefinition['transport'];
  readonly displayFile: string;
  readonly toolCount: number;
  /** Why it failed or crashed. */
  readonly error?: string;
  /** The end of its stderr (stdio servers). */
  readonly stderrTail?: string;
}

/** Answers a server's `elicitation/create` (hooks, then a person, else decline). */
export type ElicitationHandler = (server: string, request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;

/** What a connection needs from its owner. */
export interface McpConnectionOptions {
  /** Working directory of stdio servers without their own `cwd`. */
  readonly cwd: string;
  /** The environment stdio servers inherit (their `env` is merged over it). */
  readonly env: NodeJS.ProcessEnv;
  /** Told when the state or the tool list changed. */
  readonly onChange: () => void;
  readonly elicit?: ElicitationHandler;
}

/**
 * One MCP server: its client, transport and last tool list. `start` connects and lists the
 * tools (with the caller's signal and timeout); a `notifications/tools/list_changed` lists them
 * again; a stdio server that exits is `crashed` and is started again by the next `start`
 * (the manager calls it before a call). `close` ends it and its process group.
 */
export class McpConnection {
  private client: Client | undefined;
  private transport: Transport | undefined;
  private starting: Promise<void> | undefined;
  private state: McpServerState = 'stopped';
  private error: string | undefined;
  private listed: Tool[] = [];
  private closing = false;

  constructor(
    readonly definition: McpServerDefinition,
    private readonly o: McpConnectionOptions,
  ) {}

  get name(): string {
    return this.definition.name;
  }

  /** The tools of the last successful listing (kept through a crash, so the model can still call them). */
  get tools(): readonly Tool[] {
    return this.listed;
  }

  get status(): McpServerStatus {
    const stderrTail = this.transport instanceof GroupStdioTransport ? this.transport.stderrTail : undefined;
    return {
      name: this.name,
      state: this.state,
      transport: this.definition.transport,
      displayFile: this.definition.displayFile,
      toolCount: this.listed.length,
      ...(this.error ? { error: this.error } : {}),
      ...(stderrTail ? { stderrTail } : {}),
    };
  }

  /** The pid of a running stdio server (tests, the log). */
  get pid(): number | undefined {
    return this.transport instanceof GroupStdioTransport ? this.transport.pid : undefined;
  }

  /**
   * Connects when not ready (a crashed or stopped server starts again), within `timeoutMs`.
   * Concurrent callers share one attempt. Never throws: a failure is the `failed` state.
   */
  start(signal: AbortSignal, timeoutMs: number): Promise<void> {
    if (this.state === 'ready') return Promise.resolve();
    this.starting ??= this.connect(signal, timeoutMs).finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** Calls a tool; throws the SDK's error (the tool maps it to an error result). */
  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<CallToolResult> {
    const client = this.client;
    if (!client || this.state !== 'ready') throw new Error(`MCP server "${this.name}" is not running${this.error ? `: ${this.error}` : ''}`);
    // The signal sends notifications/cancelled to the server when the user presses Stop. The SDK
    // never removes its abort listener, so it gets a per-call signal, not the run's long-lived one.
    const call = new AbortController();
    const forward = (): void => call.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, { signal: call.signal, timeout: timeoutMs, resetTimeoutOnProgress: true });
      return result as CallToolResult;
    } finally {
      signal.removeEventListener('abort', forward);
    }
  }

  /** Ends the connection and the server's process group. The connection may be started again. */
  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    try {
      await client?.close();
      await this.transport?.close();
    } catch {
      // Closing a dead transport may throw; the process group is gone either way.
    } finally {
      this.closing = false;
      this.state = 'stopped';
      this.o.onChange();
    }
  }

  private async connect(signal: AbortSignal, timeoutMs: number): Promise<void> {
    await this.dropClient();
    this.state = 'starting';
    this.error = undefined;
    this.o.onChange();
    const transport = this.createTransport();
    this.transport = transport;
    const client = new Client({ name: 'hookwise', version: '0.1.0' }, { capabilities: this.o.elicit ? { elicitation: { form: {} } } : {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void this.refreshTools();
    });
    if (this.o.elicit) {
      const elicit = this.o.elicit;
      client.setRequestHandler(ElicitRequestSchema, (request, extra) => elicit(this.name, request.params, extra.signal));
    }
    try {
      await client.connect(transport, { signal, timeout: timeoutMs });
      this.client = client;
      this.listed = await this.listAll(client, signal, timeoutMs);
      // The client chains the transport's close to this (setting transport.onclose would unhook the client).
      client.onclose = () => this.onTransportClosed(client);
      this.state = 'ready';
    } catch (error) {
      this.state = 'failed';
      this.error = signal.aborted ? 'start cancelled' : `could not start: ${describeThrown(error)}`;
      this.client = undefined;
      await client.close().catch(() => undefined);
      await transport.close().catch(() => undefined);
    }
    this.o.onChange();
  }

  private createTransport(): Transport {
    const d = this.definition;
    if (d.transport === 'stdio')
      return new GroupStdioTransport({ command: d.command, args: d.args, cwd: d.cwd ?? this.o.cwd, env: { ...this.o.env, ...d.env } });
    const requestInit = { headers: { ...d.headers } };
    return d.transport === 'http'
      ? new StreamableHTTPClientTransport(new URL(d.url), { requestInit })
      : new SSEClientTransport(new URL(d.url), { requestInit });
  }

  private async listAll(client: Client, signal: AbortSignal, timeoutMs: number): Promise<Tool[]> {
    if (!client.getServerCapabilities()?.tools) return [];
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { signal, timeout: timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && tools.length < MAX_TOOLS_PER_SERVER);
    return tools.slice(0, MAX_TOOLS_PER_SERVER);
  }

  private async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      this.listed = await this.listAll(client, AbortSignal.timeout(30_000), 30_000);
      this.o.onChange();
    } catch {
      // Keep the previous list: the server may be going away (its close is reported separately).
    }
  }

  private onTransportClosed(client: Client): void {
    if (this.client !== client || this.closing) return;
    this.client = undefined;
    this.state = 'crashed';
    this.error = 'the server exited; it is started again on next use';
    this.o.onChange();
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await client.close().catch(() => undefined);
    await this.transport?.close().catch(() => undefined);
  }
}
