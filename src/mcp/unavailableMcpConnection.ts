import type { McpConnection, McpServerStatus } from './mcpConnection';
import type { McpServerDefinition } from './mcpServerConfig';

/** What the manager uses of a connection. */
export type McpServerConnection = Pick<McpConnection, 'name' | 'definition' | 'status' | 'tools' | 'pid' | 'start' | 'callTool' | 'close'>;

/**
 * A configured server that cannot run because the MCP client could not be loaded: it stays
 * `failed` with `reason`, offers no tools, and a call to it is an error result, so the agent
 * keeps working without it.
 */
export class UnavailableMcpConnection implements McpServerConnection {
  readonly tools = [];
  readonly pid = undefined;

  constructor(
    readonly definition: McpServerDefinition,
    private readonly reason: string,
  ) {}

  get name(): string {
    return this.definition.name;
  }

  get status(): McpServerStatus {
    const d = this.definition;
    return { name: d.name, state: 'failed', transport: d.transport, displayFile: d.displayFile, toolCount: 0, error: this.reason };
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  callTool(): Promise<never> {
    return Promise.reject(new Error(this.reason));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
