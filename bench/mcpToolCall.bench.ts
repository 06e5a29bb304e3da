// MCP tool calls: the overhead of calling a server tool through Hookwise's whole tool-call
// skeleton (argument validation against the tool's JSON Schema, PreToolUse with one hook that
// does not match, the permission policy, the call over our process-group stdio transport,
// result mapping, PostToolUse) vs a direct SDK call (Client + StdioClientTransport) to the same
// stdio server, interleaved round by round. Also the server start time (spawn → initialize →
// tools/list) for both. Target: through Hookwise ≤ 1.1× direct + 1 ms. Measures only.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ContextBuffer } from '../src/agent/contextBuffer';
import { HookInputs } from '../src/agent/hookInputs';
import { PermissionGate } from '../src/agent/permissionGate';
import type { RunContext } from '../src/agent/runContext';
import { runToolCall } from '../src/agent/toolCallRunner';
import { createTodoStore } from '../src/agent/tools/todoStore';
import { CommandHookAction } from '../src/hooks/actions/commandHookAction';
import { HookRegistry } from '../src/hooks/hookRegistry';
import { HookRunner } from '../src/hooks/hookRunner';
import { compileClaudeMatcher } from '../src/hooks/matchers/claudeMatcher';
import { McpServerManager } from '../src/mcp/mcpServerManager';

const SERVER = path.resolve(process.cwd(), 'test/fixtures/mcp/server.mjs');
const cwd = process.cwd();
const ROUNDS = 300;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function startDirect(): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER] }));
  await client.listTools();
  return client;
}

async function startHookwise(): Promise<McpServerManager> {
  const manager = new McpServerManager({ cwd, env: process.env });
  await manager.setServers([
    { name: 'fixture', transport: 'stdio', command: process.execPath, args: [SERVER], env: {}, scope: 'user', displayFile: 'bench', hash: 'b' },
  ]);
  await manager.ensureStarted(new AbortController().signal);
  return manager;
}

async function main(): Promise<void> {
  const startDirectMs: number[] = [];
  const startHookwiseMs: number[] = [];
  for (let i = 0; i < 10; i++) {
    let c: Client | undefined;
    startDirectMs.push(await time(async () => (c = await startDirect())));
    await c?.close();
    let m: McpServerManager | undefined;
    startHookwiseMs.push(await time(async () => (m = await startHookwise())));
    await m?.dispose();
  }

  const direct = await startDirect();
  const manager = await startHookwise();
  const registry = new HookRegistry();
  registry.register({
    event: 'PreToolUse',
    matcher: compileClaudeMatcher('Bash'),
    action: new CommandHookAction('true'),
    source: { kind: 'code', label: 'bench' },
  });
  const runner = new HookRunner(registry, { projectDir: cwd });
  const agent = { agentId: 'main', parentAgentId: null, agentType: 'main' } as const;
  const ctx: RunContext = {
    sessionId: 's',
    cwd,
    projectDir: cwd,
    model: {
      label: 'none',
      stream: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('no model')) }) }),
    } as unknown as RunContext['model'],
    hooks: runner,
    permissionMode: 'bypassPermissions',
    asks: { askFallback: 'deny' },
    emit: () => undefined,
    todos: createTodoStore(),
    sessionTranscriptPath: '/tmp/bench.jsonl',
    subagents: { agents: [], maxDepth: 0, baseTools: [], transcriptDir: '/tmp' },
  };
  const inputs = new HookInputs({ ...agent, sessionId: 's', transcriptPath: '/tmp/bench.jsonl', cwd, permissionMode: 'bypassPermissions' });
  const gate = PermissionGate.forAgent(ctx, agent, inputs);
  const tools = new Map(manager.tools().map((t) => [t.name, t] as const));
  const signal = new AbortController().signal;
  const scope = () => ({
    ctx,
    agent,
    tools,
    hooks: runner,
    inputs,
    gate,
    context: new ContextBuffer(),
    toolContext: { cwd, workspaceRoot: cwd, sessionId: 's', agentId: 'main', todos: ctx.todos },
    signal,
  });
  let n = 0;
  const viaHookwise = async (): Promise<void> => {
    const out = await runToolCall({ id: `c${n++}`, name: 'mcp__fixture__echo', argumentsText: '{"text":"hi"}' }, scope());
    if (out.content !== 'echo: hi') throw new Error(`unexpected: ${out.content}`);
  };
  const viaSdk = async (): Promise<void> => {
    const out = await direct.callTool({ name: 'echo', arguments: { text: 'hi' } });
    if ((out.content as { text: string }[])[0]?.text !== 'echo: hi') throw new Error('unexpected direct result');
  };
  for (let i = 0; i < 50; i++) {
    await viaSdk();
    await viaHookwise();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      a.push(await time(viaSdk));
      b.push(await time(viaHookwise));
    } else {
      b.push(await time(viaHookwise));
      a.push(await time(viaSdk));
    }
  }
  const d = median(a);
  const h = median(b);
  const target = 1.1 * d + 1;
  console.log(
    `MCP tool call, median of ${ROUNDS}: direct SDK ${d.toFixed(3)} ms, through Hookwise ${h.toFixed(3)} ms (${(h / d).toFixed(2)}×, +${(h - d).toFixed(3)} ms)`,
  );
  console.log(`  target ≤ 1.1× + 1 ms = ${target.toFixed(3)} ms: ${h <= target ? 'met' : 'NOT met'}`);
  console.log(
    `MCP stdio server start (spawn → initialize → tools/list), median of 10: direct SDK ${median(startDirectMs).toFixed(1)} ms, Hookwise ${median(startHookwiseMs).toFixed(1)} ms`,
  );
  await direct.close();
  await manager.dispose();
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
