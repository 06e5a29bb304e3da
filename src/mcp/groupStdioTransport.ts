import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ProcessGroupChild } from '../shared/processGroups';
import { spawnProcessGroup } from '../shared/processGroups';

/** Bytes of a server's stderr kept for the UI and error messages. */
export const STDERR_TAIL_BYTES = 8 * 1024;
/** Largest JSON-RPC line accepted from a server (a bigger one closes the connection). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** How long a server gets to exit after its stdin closes before its group is killed. */
const CLOSE_GRACE_MS = 300;

/** What a stdio server is started with. */
export interface StdioServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** The complete environment of the server. */
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/**
 * An MCP client transport over a server's stdin/stdout, like the SDK's StdioClientTransport,
 * but the server is spawned through the shared process runner: it leads its own process
 * group, which is killed as a whole on close (and when the host exits), so a server and
 * everything it started never outlive the session. Keeps a tail of the server's stderr.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private proc: ProcessGroupChild | undefined;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private stderr = '';
  private closed = false;

  constructor(private readonly launch: StdioServerLaunch) {}

  /** The server's pid once started (tests and the log). */
  get pid(): number | undefined {
    return this.proc?.child.pid;
  }

  /** The last {@link STDERR_TAIL_BYTES} characters the server wrote to stderr. */
  get stderrTail(): string {
    return this.stderr;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      let proc: ProcessGroupChild;
      try {
        proc = spawnProcessGroup(this.launch.command, this.launch.args, { cwd: this.launch.cwd, env: this.launch.env });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.proc = proc;
      const { child } = proc;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => this.finish());
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) this.onmessage?.(message);
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          void this.close();
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.proc?.child.stdin;
    if (!stdin || this.closed || stdin.destroyed) return Promise.reject(new Error('the server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Closes stdin, gives the server a moment to exit, then kills its process group. */
  async close(): Promise<void> {
    const proc = this.proc;
    if (!proc) return this.finish();
    proc.child.stdin.end();
    await proc.kill(CLOSE_GRACE_MS);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    // A server that exited by itself may have left children in its group.
    void this.proc?.kill(0);
    this.onclose?.();
  }
}
