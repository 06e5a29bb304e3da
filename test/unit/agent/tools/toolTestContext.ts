import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTodoStore } from '../../../../src/agent/tools/todoStore';
import type { ToolContext } from '../../../../src/agent/tools/tool';

/** A real temp directory pair: `root` (the workspace) and `outside` (a sibling outside it). */
export interface TempWorkspace {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  /** Writes a file under the workspace (creating parents); returns its absolute path. */
  write(rel: string, content: string | Buffer): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeWorkspace(): Promise<TempWorkspace> {
  // realpath: on macOS os.tmpdir() is itself behind a symlink; tests compare paths verbatim.
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'hookwise-tools-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  await fs.mkdir(root);
  await fs.mkdir(outside);
  return {
    base,
    root,
    outside,
    async write(rel, content) {
      const p = path.join(root, rel);
      await fs.mkdir(path.dirname(p), { recursive: true });
      await fs.writeFile(p, content);
      return p;
    },
    cleanup: () => fs.rm(base, { recursive: true, force: true }),
  };
}

export function makeContext(ws: TempWorkspace, overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    cwd: ws.root,
    workspaceRoot: ws.root,
    signal: new AbortController().signal,
    sessionId: 'session-1',
    agentId: 'agent-main',
    todos: createTodoStore(),
    ...overrides,
  };
}
