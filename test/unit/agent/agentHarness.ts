import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentRunResult } from '../../../src/agent/agentEvents';
import { runAgent } from '../../../src/agent/agentLoop';
import type { AgentRunOptions } from '../../../src/agent/agentLoop';
import { Conversation } from '../../../src/agent/conversation';
import type { AgentLimits } from '../../../src/agent/defaultLimits';
import { DEFAULT_AGENT_LIMITS, registerDefaultLimits } from '../../../src/agent/defaultLimits';
import type { PermissionMode, PermissionRules } from '../../../src/permissions/permissionMode';
import { askPolicy } from '../../../src/agent/permissionGate';
import { createBuiltinTools } from '../../../src/agent/tools/builtinTools';
import { createTodoStore } from '../../../src/agent/tools/todoStore';
import type { AnyAgentTool } from '../../../src/agent/tools/tool';
import { TranscriptWriter } from '../../../src/agent/transcript';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import type { HookRunRecord, PermissionAnswer, PermissionProvider, PermissionRequest } from '../../../src/hooks/hookRunTypes';
import { HookRunner } from '../../../src/hooks/hookRunner';
import { createHooksApi } from '../../../src/hooks/hooksApi';
import type { HooksApi } from '../../../src/hooks/hooksApi';
import type { ModelClient, ModelMessage, ModelRequest, ModelStreamEvent } from '../../../src/model/modelClient';
import { PlaygroundModelClient } from '../../../src/model/playgroundModelClient';
import type { PlaygroundTurn } from '../../../src/model/playgroundScript';

/** A scripted turn, written like a playground script: `input` objects or raw `arguments` text. */
export interface Turn {
  readonly text?: string;
  readonly toolCalls?: readonly { readonly id?: string; readonly name: string; readonly input?: Record<string, unknown>; readonly arguments?: string }[];
}

/** The PlaygroundModelClient behind a recorder: every request the loop sent is kept. */
export class RecordingModel implements ModelClient {
  readonly requests: ModelRequest[] = [];
  private readonly inner: PlaygroundModelClient;

  constructor(turns: readonly Turn[]) {
    const script: PlaygroundTurn[] = turns.map((t) => ({
      ...(t.text !== undefined ? { text: t.text } : {}),
      ...(t.toolCalls
        ? { toolCalls: t.toolCalls.map((c) => ({ ...(c.id ? { id: c.id } : {}), name: c.name, argumentsText: c.arguments ?? JSON.stringify(c.input ?? {}) })) }
        : {}),
    }));
    this.inner = new PlaygroundModelClient({ turns: script }, { chunkDelayMs: 0 });
  }

  get label(): string {
    return this.inner.label;
  }

  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    this.requests.push(structuredClone(request));
    return this.inner.stream(request, signal);
  }

  /** The messages of the n-th request (0-based), system prompt included. */
  messagesOf(n: number): readonly ModelMessage[] {
    const request = this.requests[n];
    if (!request) throw new Error(`the model got ${this.requests.length} requests, not ${n + 1}`);
    return request.messages;
  }

  /** The tool results the n-th request carried. */
  toolResultsOf(n: number): { toolCallId: string; content: string; isError?: boolean }[] {
    return this.messagesOf(n).flatMap((m) =>
      m.role === 'tool' ? [{ toolCallId: m.toolCallId, content: m.content, ...(m.isError ? { isError: true } : {}) }] : [],
    );
  }

  /** Everything the n-th request said, as one string (for "does the model see X" checks). */
  textOf(n: number): string {
    return this.messagesOf(n)
      .map((m) => m.content)
      .join('\n');
  }
}

/** A PermissionProvider that records what it was asked and answers from a function. */
export class RecordingProvider implements PermissionProvider {
  readonly requests: PermissionRequest[] = [];
  constructor(private readonly answer: (request: PermissionRequest) => PermissionAnswer = () => ({ decision: 'allow' })) {}
  requestPermission(request: PermissionRequest): Promise<PermissionAnswer> {
    this.requests.push(request);
    return Promise.resolve(this.answer(request));
  }
}

/** A real temp dir, the real HookRegistry + HookRunner + hooks API, and the real tools. */
export interface AgentHarness {
  readonly dir: string;
  readonly registry: HookRegistry;
  readonly runner: HookRunner;
  readonly hooks: HooksApi;
  /** Every finished hook execution, in order. */
  readonly records: HookRunRecord[];
  readonly transcriptPath: string;
  run(turns: readonly Turn[], options?: RunOverrides): Promise<RunOutcome>;
  cleanup(): Promise<void>;
}

export interface RunOverrides {
  readonly prompt?: string;
  readonly mode?: PermissionMode;
  readonly rules?: PermissionRules;
  readonly sessionRules?: PermissionRules & { grant(rule: string): void };
  readonly provider?: PermissionProvider;
  readonly askFallback?: 'allow' | 'deny';
  readonly signal?: AbortSignal;
  readonly tools?: readonly AnyAgentTool[];
  readonly limits?: Partial<AgentLimits>;
  readonly model?: ModelClient;
}

export interface RunOutcome {
  readonly result: AgentRunResult;
  readonly model: RecordingModel;
  readonly events: AgentEvent[];
  readonly conversation: Conversation;
}

export async function makeAgentHarness(): Promise<AgentHarness> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hookwise-agent-')));
  const registry = new HookRegistry();
  const records: HookRunRecord[] = [];
  const runner = new HookRunner(registry, { projectDir: dir, observers: [{ onHookFinished: (r) => records.push(r) }] });
  const hooks = createHooksApi(registry, { source: { kind: 'code', label: 'test' } });
  const transcriptPath = path.join(dir, '.transcripts', 'session-1.jsonl');
  let limits: AgentLimits = DEFAULT_AGENT_LIMITS;
  registerDefaultLimits(createHooksApi(registry, { source: { kind: 'code', label: 'built-in limits' } }), () => limits);

  return {
    dir,
    registry,
    runner,
    hooks,
    records,
    transcriptPath,
    async run(turns, o = {}) {
      limits = { ...DEFAULT_AGENT_LIMITS, maxSteps: 10, ...o.limits };
      const model = new RecordingModel(turns);
      const events: AgentEvent[] = [];
      const transcript = new TranscriptWriter(transcriptPath);
      const conversation = new Conversation([{ role: 'user', content: o.prompt ?? 'do the task' }], (m) => transcript.writeMessage(m, 'main'));
      const options: AgentRunOptions = {
        ctx: {
          sessionId: 'session-1',
          cwd: dir,
          projectDir: dir,
          model: o.model ?? model,
          hooks: runner,
          permissionMode: o.mode ?? 'default',
          ...(o.rules ? { rules: o.rules } : {}),
          ...(o.sessionRules ? { sessionRules: o.sessionRules } : {}),
          asks: askPolicy(o.provider, o.askFallback),
          emit: (e) => events.push(e),
          todos: createTodoStore(),
          sessionTranscriptPath: transcriptPath,
          subagents: { agents: [], maxDepth: 0, baseTools: [], transcriptDir: path.join(dir, '.transcripts', 'subagents') },
        },
        agent: { agentId: 'main', parentAgentId: null, agentType: 'main' },
        transcriptPath,
        systemPrompt: 'You are a test agent.',
        conversation,
        tools: o.tools ?? createBuiltinTools(),
        signal: o.signal ?? new AbortController().signal,
        stopEvent: 'Stop',
      };
      try {
        const result = await runAgent(options);
        return { result, model, events, conversation };
      } finally {
        transcript.close();
      }
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Registers one recorder on every event the main loop fires; returns the names in order. */
export function recordEvents(hooks: HooksApi, events: readonly string[]): string[] {
  const seen: string[] = [];
  for (const event of events) hooks.on(event as 'Stop', () => void seen.push(event));
  return seen;
}

/** One Bash call turn. */
export function bash(command: string, id?: string): Turn {
  return { toolCalls: [{ ...(id ? { id } : {}), name: 'Bash', input: { command } }] };
}
