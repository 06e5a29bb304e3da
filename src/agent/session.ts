import type { MemorySnapshot } from './memory/memoryFiles';
import { LazyMemory } from './memory/lazyMemory';
import { loadFileToolMemory } from './memory/fileToolMemory';
import { createSkillTool } from './skills/skillTool';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { HookEventResult } from '../hooks/hookRunTypes';
import type { ModelMessage } from '../model/modelClient';
import type { AgentRunResult } from './agentEvents';
import { emitSystemMessages } from './agentEvents';
import { runAgent } from './agentLoop';
import { Conversation } from './conversation';
import { HookInputs } from './hookInputs';
import { PermissionGate } from './permissionGate';
import type { RunContext } from './runContext';
import type { AnyAgentTool } from './tools/tool';
import type { Task } from './tools/taskStore';
import { FileWatch } from './fileWatch';
import { hookSpecificValues } from './hookSpecificFields';
import type { ConfigChange, ConfigChangeVerdict } from './configChange';
import { TranscriptWriter } from './transcript';
import { forEvent } from '../hooks/hookContext';
import type { HookEnvelope } from '../hooks/hookContext';
import type { HookEvent } from '../hooks/hookEvent';
import { createAgentTool } from './subagents/agentTool';
import { raceAbort } from '../shared/raceAbort';
import { CheckpointStore, type RestoreReport } from './checkpoints/checkpointStore';
import { CheckpointJournal } from './checkpoints/checkpointJournal';
import { withCheckpoints } from './checkpoints/checkpointTools';
import { resolveContextWindow } from './contextWindow';
import { SessionCompaction, type CompactionResult } from './sessionCompaction';
import type { Summarizer } from './compaction';
import { rewindToCheckpoint, undoCheckpointEdits, type CheckpointScope, type RewindResult } from './sessionCheckpoints';
import { contextNote } from './sessionContextNote';
import { SessionEvents } from './sessionEvents';
import { MAIN } from './sessionHooks';
import { attachedMemoryNote, preparePrompt } from './sessionPrompt';
import { sessionRunContext } from './sessionRunContext';
import type { PromptContext, SessionOptions } from './sessionOptions';

/** How long SessionEnd hooks may take, so closing stays quick (Claude Code uses 1.5 s). */
export const SESSION_END_TIMEOUT_MS = 1500;

/**
 * How one prompt ended. `blocked`: it never reached the model, with the reason and `blockedBy`,
 * who dropped it ("a UserPromptSubmit hook", "the permission fallback (…)", "its slash command"…).
 */
export type SubmitResult = { readonly status: 'blocked'; readonly reason: string; readonly blockedBy: string } | AgentRunResult;

/**
 * One conversation with the main agent. Fires SessionStart (its stdout and additionalContext become context), UserPromptSubmit
 * per prompt (block drops the prompt and tells the user; stdout/additionalContext become context; in-process hooks may rewrite
 * the prompt via `updatedInput.prompt`), and SessionEnd with a short timeout. Everything is written to the JSONL transcript as it
 * happens. It builds the one {@link RunContext} its agent runs (and their subagents) share; an ask from any of its own events
 * goes through the main agent's permission gate, like the loop's.
 */
export class Session {
  readonly id: string;
  readonly transcriptPath: string;
  /** `CLAUDE_ENV_FILE` of this session: SessionStart hooks append `export K=V` lines, Bash sources them. */
  readonly envFile: string;
  private readonly transcript: TranscriptWriter;
  private readonly conversation: Conversation;
  /** Context waiting for the next prompt (hook notes, undo notices); changed in place. */
  private readonly pendingContext: string[] = [];
  private running: Promise<SubmitResult> | undefined;
  /** The prompt being answered (hook input `prompt_id`); kept after it ends for the idle Notification and Stop of that prompt. */
  private promptId: string | undefined;
  private ended = false;
  private readonly ctx: RunContext;
  /** The main agent's gate for the session's own events (SessionStart, UserPromptSubmit, PreCompact…). */
  private readonly gate: PermissionGate;
  private readonly background = new Set<Promise<unknown>>();
  private context: PromptContext | undefined;
  /** Nested CLAUDE.md and `paths:` rules loaded as the agent works on files; starts over at each start. */
  private readonly lazyMemory: LazyMemory;
  /**
   * Files the agent's Write/Edit calls changed, per prompt (Restore Checkpoint, Undo), saved
   * beside the transcript in `<transcriptDir>/<sessionId>/file-history/`, so a resumed session keeps them.
   */
  readonly checkpoints: CheckpointStore;
  private checkpointProblem: string | undefined;
  /** The session's tools, Write and Edit recording into the checkpoints. */
  private readonly tools: readonly AnyAgentTool[];
  /** The paths SessionStart/CwdChanged/FileChanged hooks asked to watch (FileChanged fires on their changes). */
  private readonly fileWatch: FileWatch;
  /** Compaction, manual and automatic (sessionCompaction.ts). */
  private readonly compaction: SessionCompaction;
  /** InstructionsLoaded, ConfigChange, DirectoryAdded, FileChanged and the idle Notification (sessionEvents.ts). */
  private readonly events: SessionEvents;
  /** What Restore Checkpoint and Undo change (sessionCheckpoints.ts). */
  private readonly checkpointScope: CheckpointScope;

  constructor(private readonly o: SessionOptions) {
    this.id = o.sessionId ?? randomUUID();
    this.transcriptPath = path.join(o.transcriptDir, `${this.id}.jsonl`);
    this.envFile = path.join(o.transcriptDir, `${this.id}.env.sh`);
    this.transcript = new TranscriptWriter(this.transcriptPath, { sessionId: this.id, cwd: o.cwd });
    this.conversation = new Conversation(o.history ?? [], (m) => this.transcript.writeMessage(m, MAIN.agentId));
    // Undo and Restore write only inside the workspace, re-checked at that time (symlinks swapped in since).
    const loaded = CheckpointStore.load(new CheckpointJournal(path.join(o.transcriptDir, this.id, 'file-history')), undefined, o.projectDir);
    this.checkpoints = loaded.store;
    this.checkpointProblem = loaded.problem;
    this.tools = withCheckpoints(o.tools, this.checkpoints);
    this.fileWatch = new FileWatch(
      (file, kind) => this.events.fileChanged(file, kind),
      (problem) => o.emit({ type: 'systemMessage', agent: MAIN, text: `FileChanged: ${problem}.`, source: 'FileChanged' }),
    );
    this.lazyMemory = new LazyMemory(o.cwd, o.projectDir, o.memoryAccess);
    this.ctx = sessionRunContext(o, {
      sessionId: this.id,
      transcriptPath: this.transcriptPath,
      envFile: this.envFile,
      transcript: this.transcript,
      tools: this.tools,
      promptId: () => this.promptId,
      emit: (event) => {
        // The model's own count of the prompt: what auto-compaction measures (the estimate only fills in the messages since).
        if (event.type === 'usage' && event.agent.agentId === MAIN.agentId) this.compaction.noteUsage(event.inputTokens);
        o.emit(event);
      },
      watchPaths: (paths) => this.fileWatch.add(paths),
      lazyMemory: this.lazyMemory,
    });
    const inputs = new HookInputs({
      ...MAIN,
      sessionId: this.id,
      transcriptPath: this.transcriptPath,
      cwd: o.cwd,
      permissionMode: o.permissionMode,
      promptId: this.ctx.promptId,
    });
    const track = (work: Promise<unknown>): void => {
      this.background.add(work);
      void work.finally(() => this.background.delete(work));
    };
    this.gate = PermissionGate.forAgent(this.ctx, MAIN, inputs, o.hooks, track);
    const runHooks = this.runHooks.bind(this);
    const envelope = this.envelope.bind(this);
    this.compaction = new SessionCompaction({
      conversation: this.conversation,
      checkpoints: this.checkpoints,
      transcript: this.transcript,
      model: o.model,
      modelName: o.modelName,
      emit: o.emit,
      budgetTokens: o.compactionBudgetTokens ?? 0,
      contextWindow: resolveContextWindow(o.contextWindowTokens, o.modelName),
      envFile: this.envFile,
      envelope,
      runHooks,
      ...(o.activeCompaction ? { active: o.activeCompaction } : {}),
    });
    this.checkpointScope = {
      checkpoints: this.checkpoints,
      conversation: this.conversation,
      transcript: this.transcript,
      pendingContext: this.pendingContext,
    };
    this.events = new SessionEvents({
      hooks: o.hooks,
      emit: o.emit,
      runHooks,
      envelope,
      envFile: this.envFile,
      ended: () => this.ended,
      watch: (paths) => this.fileWatch.add(paths),
      track,
      idleNotificationMs: o.idleNotificationMs ?? 0,
    });
  }

  /** Runs one of the session's own events through the main agent's gate, the route of every agent event. */
  private runHooks(
    event: HookEvent,
    input: Readonly<Record<string, unknown>>,
    signal?: AbortSignal,
    env?: Readonly<Record<string, string>>,
  ): Promise<HookEventResult> {
    return this.gate.run(event, input, signal, env ? { env } : {});
  }

  /** The memory files the session loaded at its start (CLAUDE.md, rules, imports); undefined before start. */
  get memory(): MemorySnapshot | undefined {
    return this.lazyMemory.withLoaded(this.context?.memory);
  }

  /** True while a prompt runs (its tools may be writing files). */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** The conversation so far (read-only). */
  get messages(): readonly ModelMessage[] {
    return this.conversation.messages;
  }

  /** Records a hook execution in the transcript (the composition root subscribes this to the runner). */
  get transcriptWriter(): TranscriptWriter {
    return this.transcript;
  }

  /** Fires SessionStart; `source` is startup, resume, clear or compact. */
  async start(source: 'startup' | 'resume' | 'clear' | 'compact', signal?: AbortSignal): Promise<HookEventResult> {
    // Memory is read when a session starts (a CLAUDE.md edit applies to the next session, as in Claude Code); compaction keeps it.
    if (source !== 'compact' || !this.context) {
      this.context = await this.o.promptContext?.(signal);
      this.lazyMemory.reset(this.context?.memory);
      for (const problem of this.context?.memory?.problems ?? [])
        this.o.emit({ type: 'systemMessage', agent: MAIN, text: `Memory: ${problem}`, source: 'memory' });
      await this.events.instructionsLoaded(this.context?.memory?.files ?? [], source === 'compact' ? 'compact' : undefined, signal);
    }
    this.transcript.write({ type: 'session', session_id: this.id, cwd: this.o.cwd, source, model: this.o.model.label });
    // Claude Code names the model at the top level after a compaction only; elsewhere it is Hookwise's.
    const model = this.o.model.label;
    const input =
      source === 'compact' ? forEvent('SessionStart', this.envelope(), { source, model }) : forEvent('SessionStart', this.envelope(), { source }, { model });
    const result = await this.runHooks('SessionStart', input, signal, {
      CLAUDE_ENV_FILE: this.envFile,
    });
    this.takeContext(result, `SessionStart:${source}`);
    emitSystemMessages(this.o.emit, MAIN, result);
    if (this.checkpointProblem) this.o.emit({ type: 'systemMessage', agent: MAIN, text: this.checkpointProblem, source: 'Hookwise' });
    const named = this.o.fileChangedNames?.() ?? [];
    this.fileWatch.add([...named.map((name) => path.join(this.o.cwd, name)), ...hookSpecificValues(result, 'watchPaths').flat()]);
    return result;
  }

  /**
   * Fires Setup (`hookwise --init`: trigger `init`; `--maintenance`: `maintenance`) before
   * SessionStart; what its hooks add becomes context for the first prompt.
   */
  async setup(trigger: 'init' | 'maintenance', signal?: AbortSignal): Promise<HookEventResult> {
    const result = await this.runHooks('Setup', forEvent('Setup', this.envelope(), { trigger }), signal, { CLAUDE_ENV_FILE: this.envFile });
    this.takeContext(result, `Setup:${trigger}`);
    emitSystemMessages(this.o.emit, MAIN, result);
    return result;
  }

  /** ConfigChange before a new configuration applies; see {@link SessionEvents.configChanging}. */
  configChanging(changes: readonly ConfigChange[], signal?: AbortSignal): Promise<ConfigChangeVerdict> {
    return this.events.configChanging(changes, signal);
  }

  /** DirectoryAdded: a folder joined the workspace (a VS Code workspace folder). Observation only. */
  directoryAdded(directory: string, signal?: AbortSignal): Promise<void> {
    return this.events.directoryAdded(directory, signal);
  }

  /**
   * Sends one prompt through UserPromptSubmit and the agent. One prompt at a time.
   * `attachments`: texts the user attached (chat context), given to the model just before the
   * prompt; hooks see the prompt as typed. `attachedFiles`: the files among them (absolute), whose
   * nested CLAUDE.md and `paths:` rules load as for a read.
   */
  async submit(prompt: string, signal: AbortSignal, attachments: readonly string[] = [], attachedFiles: readonly string[] = []): Promise<SubmitResult> {
    if (this.running) throw new Error('a prompt is already running in this session');
    this.events.clearIdle();
    const work = this.submitNow(prompt, signal, attachments, attachedFiles);
    this.running = work;
    try {
      return await work;
    } finally {
      this.running = undefined;
      this.events.armIdle();
    }
  }

  private async submitNow(prompt: string, signal: AbortSignal, attachments: readonly string[], attachedFiles: readonly string[]): Promise<SubmitResult> {
    this.promptId = randomUUID();
    const prepared = await preparePrompt(prompt, {
      ctx: this.ctx,
      envelope: () => this.envelope(),
      tools: this.tools,
      slashCommands: this.o.slashCommands,
      runHooks: (event, input, s, env) => this.runHooks(event, input, s, env),
      transcript: this.transcript,
      emit: this.o.emit,
      signal,
    });
    if (prepared.kind === 'blocked') return { status: 'blocked', reason: prepared.reason, blockedBy: prepared.blockedBy };
    const finalPrompt = prepared.prompt;
    // The checkpoint is the state just before this prompt's context and prompt reach the conversation.
    this.checkpoints.beginTurn(finalPrompt, {
      length: this.conversation.length,
      compactions: this.checkpoints.compactions,
      pendingContext: [...this.pendingContext],
    });
    this.takeContext(prepared.submitted, 'UserPromptSubmit');
    if (this.pendingContext.length > 0) {
      this.conversation.append({ role: 'user', content: `<system-reminder>\n${this.pendingContext.join('\n')}\n</system-reminder>` });
      this.pendingContext.length = 0;
    }
    const memory = await attachedMemoryNote([...prepared.files, ...attachedFiles], {
      lazyMemory: this.o.lazyMemoryOn?.() === false ? undefined : this.ctx.lazyMemory, // the memory provider off: none either
      emit: this.o.emit,
      instructionsLoaded: (files, s) => this.events.instructionsLoaded(files, undefined, s),
      signal,
    });
    if (memory !== undefined) this.conversation.append({ role: 'user', content: `<system-reminder>\n${memory}\n</system-reminder>` });
    // What the user attached (files, selection, Problems: `<system-reminder>` texts) goes just before the prompt, as Claude Code sends it.
    if (attachments.length > 0) this.conversation.append({ role: 'user', content: attachments.join('\n') });
    this.conversation.append({ role: 'user', content: finalPrompt });

    const maxDepth = this.ctx.subagents.maxDepth;
    const skill = createSkillTool(this.ctx, this.o.skills ?? []);
    const tools = [...this.tools, ...(skill ? [skill] : []), ...(maxDepth > 0 ? [createAgentTool(this.ctx, MAIN, 0)] : [])];
    const mcp = this.o.mcp;
    if (mcp?.hasServers) await mcp.ensureStarted(signal);
    return runAgent({
      ctx: this.ctx,
      agent: MAIN,
      transcriptPath: this.transcriptPath,
      systemPrompt: this.context?.text ? `${this.o.systemPrompt}\n\n${this.context.text}` : this.o.systemPrompt,
      conversation: this.conversation,
      tools,
      ...(mcp ? { moreTools: () => mcp.tools() } : {}),
      signal,
      stopEvent: 'Stop',
      onContextTooLong: () => this.compaction.compactAfterOverflow(signal),
    });
  }

  /**
   * `/compact` with the compaction provider in effect: PreCompact, its summary replacing the
   * older turns, PostCompact, SessionStart `compact` (SessionCompaction.compact). Skipped,
   * saying why, when none is installed.
   */
  compact(trigger: 'manual' | 'auto', signal: AbortSignal, customInstructions?: string): Promise<CompactionResult> {
    return this.compaction.compactWithProvider(trigger, signal, customInstructions);
  }

  /** What a file tool's call brings into memory: the built-in memory provider's PostToolUse hook calls it (memoryProvider.ts). */
  async loadFileToolMemory(input: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<string | undefined> {
    return this.ctx.lazyMemory && loadFileToolMemory({ lazyMemory: this.ctx.lazyMemory, emit: this.o.emit, hooks: this.o.hooks }, input, signal);
  }

  /** The session's tasks (the built-in task reminder lists them); undefined without Task tools. */
  get taskList(): (() => readonly Task[]) | undefined {
    const tasks = this.ctx.tasks;
    return tasks && this.tools.some((t) => t.name === 'TaskUpdate') ? () => tasks.list() : undefined;
  }

  /** Automatic compaction, when over the limit: what the compaction provider's hook calls before each step (compactionProvider.ts). */
  autoCompact(signal: AbortSignal, summarizer?: Summarizer): Promise<void> {
    return this.compaction.maybeAutoCompact(signal, summarizer);
  }

  /**
   * Restore Checkpoint: files back and the conversation cut to just before prompt
   * `checkpointId` (sessionCheckpoints.ts); refused while a prompt runs.
   */
  async rewind(checkpointId: number): Promise<RewindResult> {
    if (this.running) return { ok: false, error: 'the agent is still working; press Stop first' };
    return rewindToCheckpoint(this.checkpointScope, checkpointId);
  }

  /**
   * Undo of one prompt's file changes (one file, or all), keeping the conversation. The model
   * is told at the next prompt, so it does not build on edits that are gone.
   */
  undoEdits(checkpointId: number, filePath?: string): Promise<RestoreReport> {
    return undoCheckpointEdits(this.checkpointScope, checkpointId, filePath);
  }

  /** Fires SessionEnd (reason clear | prompt_input_exit | other) within a short budget, then closes the transcript. */
  async end(reason: 'clear' | 'prompt_input_exit' | 'logout' | 'other'): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.events.clearIdle();
    this.fileWatch.close();
    const signal = AbortSignal.timeout(SESSION_END_TIMEOUT_MS);
    // Past the budget the session ends anyway, whether or not the hooks heed the signal.
    // Notifications still running for this session (a permission prompt's) finish first, in the same budget.
    await raceAbort(Promise.allSettled([...this.background]), signal).catch(() => undefined);
    await raceAbort(this.runHooks('SessionEnd', forEvent('SessionEnd', this.envelope(), { reason }), signal), signal).catch(() => undefined);
    this.transcript.write({ type: 'session_end', session_id: this.id, reason });
    this.transcript.close();
  }

  /** The fields every hook input of the main agent shares (MCP elicitations use them too). */
  envelope(): HookEnvelope {
    return {
      session_id: this.id,
      transcript_path: this.transcriptPath,
      cwd: this.o.cwd,
      permission_mode: this.o.permissionMode,
      prompt_id: this.ctx.promptId,
      agent_id: MAIN.agentId,
      parent_agent_id: null,
      agent_type: MAIN.agentType,
    };
  }

  private takeContext(result: HookEventResult, hookName: string): void {
    const note = contextNote(result, hookName);
    if (note !== undefined) this.pendingContext.push(note);
  }
}
