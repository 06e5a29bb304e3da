import type { MemorySnapshot } from './memory/memoryFiles';
import { LazyMemory } from './memory/lazyMemory';
import { expandPrompt } from './commands/promptExpansion';
import type { SlashCommandSet } from './commands/slashCommands';
import type { SkillDefinition } from './skills/skillDefinitions';
import { createSkillTool } from './skills/skillTool';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { HookEventResult } from '../hooks/hookRunTypes';
import type { ModelClient, ModelMessage } from '../model/modelClient';
import type { AgentEventListener, AgentRunResult } from './agentEvents';
import { emitSystemMessages } from './agentEvents';
import { runAgent } from './agentLoop';
import { Conversation } from './conversation';
import type { HookDispatcher } from './hookDispatcher';
import type { PermissionMode, PermissionRules } from './permissionMode';
import { HookInputs } from './hookInputs';
import { askPolicy, PermissionGate } from './permissions/permissionGate';
import type { AskPolicy, SessionRules } from './permissions/permissionGate';
import type { RunContext } from './runContext';
import type { AnyAgentTool } from './tools/tool';
import { createTodoStore } from './tools/todoStore';
import { createTaskStore } from './tools/taskStore';
import { ShellCwd } from './tools/shellCwd';
import { FileWatch } from './fileWatch';
import type { FileChangeKind } from './fileWatch';
import { hookSpecificValues } from './hookSpecificFields';
import type { ConfigChange, ConfigChangeVerdict } from './configChange';
import { TranscriptWriter } from './transcript';
import { compactionCut, estimateTokens, summarize } from './compaction';
import { compactionNote } from './compactionNote';
import { forEvent, HookContext } from '../hooks/hookContext';
import type { HookEnvelope } from '../hooks/hookContext';
import type { HookEvent } from '../hooks/hookEvent';
import type { AgentDefinition } from './subagents/agentDefinitions';
import { BUILTIN_AGENTS } from './subagents/agentDefinitions';
import { createAgentTool, DEFAULT_MAX_SUBAGENT_DEPTH } from './subagents/agentTool';
import { safeTimerDelay } from '../shared/timerDelay';
import { thrownMessage } from '../shared/describeThrown';
import { raceAbort } from '../shared/raceAbort';
import { CheckpointStore } from './checkpoints/checkpointStore';
import type { RestoreReport } from './checkpoints/checkpointStore';
import { CheckpointJournal } from './checkpoints/checkpointJournal';
import { withCheckpoints } from './checkpoints/checkpointTools';

/** How long SessionEnd hooks may take, so closing stays quick (Claude Code uses 1.5 s). */
export const SESSION_END_TIMEOUT_MS = 1500;

/** What builds a session. */
export interface SessionOptions {
  readonly sessionId?: string;
  readonly cwd: string;
  readonly projectDir: string;
  /** Folder of transcripts; the file is `<dir>/<sessionId>.jsonl`. */
  readonly transcriptDir: string;
  readonly model: ModelClient;
  readonly modelName?: string;
  readonly hooks: HookDispatcher;
  readonly tools: readonly AnyAgentTool[];
  /** MCP servers: started before the first model call of a prompt, their tools re-read every step. */
  readonly mcp?: SessionToolSource;
  readonly permissionMode: PermissionMode;
  readonly rules?: PermissionRules;
  readonly sessionRules?: SessionRules;
  /** Who answers an ask; absent = nobody (headless), and the default fallback (deny) applies. */
  readonly asks?: AskPolicy;
  readonly systemPrompt: string;
  readonly emit: AgentEventListener;
  /** Conversation to continue (resume). */
  readonly history?: readonly ModelMessage[];
  /** Subagent types for the Agent tool; absent or maxSubagentDepth 0 = no Agent tool. */
  readonly agents?: readonly AgentDefinition[];
  readonly maxSubagentDepth?: number;
  /** File names FileChanged matchers list literally (`.envrc|.env`): watched in `cwd` from SessionStart on, as in Claude Code. */
  readonly fileChangedNames?: () => readonly string[];
  /** Compact automatically when the conversation's estimated tokens exceed this; 0/absent = never. */
  readonly compactionBudgetTokens?: number;
  /** Fire Notification `idle_prompt` when a finished agent waits this long for the user; 0/absent = never. */
  readonly idleNotificationMs?: number;
  /**
   * Loaded at each start: the environment block and memory files (CLAUDE.md…) appended to the
   * system prompt. Absent = the system prompt alone.
   */
  readonly promptContext?: () => Promise<PromptContext>;
  /** Custom slash commands (`.claude/commands`), read at each prompt that starts with `/`. Absent = prompts go as typed. */
  readonly slashCommands?: () => Promise<SlashCommandSet>;
  /** Skills the main agent can load with the Skill tool; none = no Skill tool. */
  readonly skills?: readonly SkillDefinition[];
}

/** What a session appends to its system prompt, and the memory it came from. */
export interface PromptContext {
  readonly text: string;
  readonly memory?: MemorySnapshot;
}

/** Tools from outside (the MCP servers): started when a prompt needs them, re-read before every model call. */
export interface SessionToolSource {
  readonly hasServers: boolean;
  /** Starts what is not running; never throws (a server that fails offers no tools). */
  ensureStarted(signal: AbortSignal): Promise<void>;
  tools(): readonly AnyAgentTool[];
}

/** What a compaction did. */
export type CompactionResult =
  | { readonly status: 'compacted'; readonly summarized: number; readonly kept: number; readonly summary: string }
  | { readonly status: 'skipped'; readonly reason: string };

/** What a rewind did: the prompt it removed (for the input box) and the files it put back. */
export type RewindResult =
  | { readonly ok: true; readonly prompt: string; readonly files: RestoreReport; readonly messagesRemoved: number }
  | { readonly ok: false; readonly error: string };

/** How one prompt ended. `blocked`: a UserPromptSubmit hook dropped it, with the reason. */
export type SubmitResult = { readonly status: 'blocked'; readonly reason: string } | AgentRunResult;

const MAIN = { agentId: 'main', parentAgentId: null, agentType: 'main' } as const;

/**
 * One conversation with the main agent. Fires SessionStart (its stdout and
 * additionalContext become context), UserPromptSubmit per prompt (block drops the prompt
 * and tells the user; stdout/additionalContext become context; in-process hooks may
 * rewrite the prompt via `updatedInput.prompt`), and SessionEnd with a short timeout.
 * Everything is written to the JSONL transcript as it happens. It builds the one
 * {@link RunContext} its agent runs (and their subagents) share; an ask from any of its own
 * events goes through the main agent's permission gate, like the loop's.
 */
export class Session {
  readonly id: string;
  readonly transcriptPath: string;
  /** `CLAUDE_ENV_FILE` of this session: SessionStart hooks append `export K=V` lines, Bash sources them. */
  readonly envFile: string;
  /** Estimated message tokens right after the last auto compaction: the next one waits for the messages to grow. */
  private stillOverAfterCompaction: number | undefined;
  private readonly transcript: TranscriptWriter;
  private readonly conversation: Conversation;
  private readonly todos = createTodoStore();
  private pendingContext: string[] = [];
  private running: Promise<SubmitResult> | undefined;
  /** The prompt being answered (hook input `prompt_id`); kept after it ends for the idle Notification and Stop of that prompt. */
  private promptId: string | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
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
  /** Prompt tokens the model last reported, and the conversation length then (auto-compaction reads them). */
  private reportedPrompt: { readonly tokens: number; readonly messages: number } | undefined;

  constructor(private readonly o: SessionOptions) {
    this.id = o.sessionId ?? randomUUID();
    this.transcriptPath = path.join(o.transcriptDir, `${this.id}.jsonl`);
    this.envFile = path.join(o.transcriptDir, `${this.id}.env.sh`);
    this.transcript = new TranscriptWriter(this.transcriptPath, { sessionId: this.id, cwd: o.cwd });
    this.conversation = new Conversation(o.history ?? [], (m) => this.transcript.writeMessage(m, MAIN.agentId));
    const loaded = CheckpointStore.load(new CheckpointJournal(path.join(o.transcriptDir, this.id, 'file-history')));
    this.checkpoints = loaded.store;
    this.checkpointProblem = loaded.problem;
    this.tools = withCheckpoints(o.tools, this.checkpoints);
    this.fileWatch = new FileWatch(
      (file, kind) => this.fileChanged(file, kind),
      (problem) => o.emit({ type: 'systemMessage', agent: MAIN, text: `FileChanged: ${problem}.`, source: 'FileChanged' }),
    );
    this.lazyMemory = new LazyMemory(o.cwd, o.projectDir);
    this.ctx = {
      sessionId: this.id,
      cwd: o.cwd,
      projectDir: o.projectDir,
      model: o.model,
      modelName: o.modelName,
      hooks: o.hooks,
      permissionMode: o.permissionMode,
      promptId: () => this.promptId,
      rules: o.rules,
      sessionRules: o.sessionRules,
      asks: o.asks ?? askPolicy(undefined, undefined),
      emit: (event) => {
        // The model's own count of the prompt: what auto-compaction measures (the estimate only fills in the messages since).
        if (event.type === 'usage' && event.agent.agentId === MAIN.agentId)
          this.reportedPrompt = { tokens: event.inputTokens, messages: this.conversation.length };
        o.emit(event);
      },
      todos: this.todos,
      tasks: createTaskStore(),
      shellCwd: new ShellCwd(o.cwd),
      watchPaths: (paths) => this.fileWatch.add(paths),
      envFile: this.envFile,
      sessionTranscriptPath: this.transcriptPath,
      subagents: {
        agents: o.agents ?? BUILTIN_AGENTS,
        maxDepth: o.maxSubagentDepth ?? DEFAULT_MAX_SUBAGENT_DEPTH,
        baseTools: this.tools,
        ...(o.mcp ? { moreTools: () => o.mcp?.tools() ?? [] } : {}),
        transcriptDir: path.join(o.transcriptDir, this.id, 'subagents'),
      },
      parentTranscript: this.transcript,
      lazyMemory: o.promptContext ? this.lazyMemory : undefined,
    };
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
  }

  /** Runs one of the session's own events; an ask in it is settled by the gate. */
  private async runHooks(
    event: HookEvent,
    input: Readonly<Record<string, unknown>>,
    signal?: AbortSignal,
    env?: Readonly<Record<string, string>>,
  ): Promise<HookEventResult> {
    const result = await this.o.hooks.run(event, input, { ...(signal ? { signal } : {}), ...(env ? { env } : {}) });
    return result.decision === 'ask' ? this.gate.settle(result, {}, signal ?? new AbortController().signal) : result;
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
      this.context = await this.o.promptContext?.();
      this.lazyMemory.reset(this.context?.memory);
      for (const problem of this.context?.memory?.problems ?? [])
        this.o.emit({ type: 'systemMessage', agent: MAIN, text: `Memory: ${problem}`, source: 'memory' });
      await this.instructionsLoaded(source === 'compact' ? 'compact' : undefined, signal);
    }
    this.transcript.write({ type: 'session', session_id: this.id, cwd: this.o.cwd, source, model: this.o.model.label });
    const result = await this.runHooks('SessionStart', HookContext.forSessionStart(this.envelope(), { source, model: this.o.model.label }), signal, {
      CLAUDE_ENV_FILE: this.envFile,
    });
    this.takeContext(result, `SessionStart:${source}`);
    emitSystemMessages(this.o.emit, MAIN, result);
    if (this.checkpointProblem) this.o.emit({ type: 'systemMessage', agent: MAIN, text: this.checkpointProblem, source: 'Hookwise' });
    const named = this.o.fileChangedNames?.() ?? [];
    this.fileWatch.add([...named.map((name) => path.join(this.o.cwd, name)), ...hookSpecificValues(result, 'watchPaths').flat()]);
    return result;
  }

  /** InstructionsLoaded for each memory file the session loaded (observation only, as in Claude Code). */
  private async instructionsLoaded(reason: 'compact' | undefined, signal?: AbortSignal): Promise<void> {
    const files = this.context?.memory?.files ?? [];
    if (files.length === 0 || this.o.hooks.hasHooks?.('InstructionsLoaded') === false) return;
    for (const file of files) {
      const input = forEvent('InstructionsLoaded', this.envelope(), {
        file_path: file.path,
        memory_type: file.memoryType,
        load_reason: reason ?? file.loadReason,
        ...(file.parentPath ? { parent_file_path: file.parentPath } : {}),
      });
      emitSystemMessages(this.o.emit, MAIN, await this.runHooks('InstructionsLoaded', input, signal));
    }
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

  /**
   * ConfigChange, once per changed source, before the new configuration is applied (the
   * hooks of the configuration in force run). A block (exit 2, `decision: "block"`) keeps the
   * old configuration, except for policy settings, which always apply (Claude Code too).
   */
  async configChanging(changes: readonly ConfigChange[], signal?: AbortSignal): Promise<ConfigChangeVerdict> {
    if (this.ended || this.o.hooks.hasHooks?.('ConfigChange') === false) return { apply: true };
    for (const change of changes) {
      const input = forEvent('ConfigChange', this.envelope(), { source: change.source, ...(change.filePath ? { file_path: change.filePath } : {}) });
      const result = await this.runHooks('ConfigChange', input, signal);
      emitSystemMessages(this.o.emit, MAIN, result);
      if ((result.decision === 'deny' || result.decision === 'stop') && change.source !== 'policy_settings') {
        const reason = result.reason ?? 'blocked by a ConfigChange hook';
        this.o.emit({
          type: 'systemMessage',
          agent: MAIN,
          text: `The configuration change (${change.source}) was not applied: ${reason}`,
          source: 'ConfigChange',
        });
        return { apply: false, reason, source: change.source };
      }
    }
    return { apply: true };
  }

  /** DirectoryAdded: a folder joined the workspace (a VS Code workspace folder). Observation only. */
  async directoryAdded(directory: string, signal?: AbortSignal): Promise<void> {
    if (this.ended || this.o.hooks.hasHooks?.('DirectoryAdded') === false) return;
    const result = await this.runHooks('DirectoryAdded', forEvent('DirectoryAdded', this.envelope(), { directory, source: 'register_repo_root' }), signal);
    emitSystemMessages(this.o.emit, MAIN, result);
  }

  /** A watched file changed: FileChanged hooks run (matcher = the file name) and may watch more paths. */
  private fileChanged(file: string, kind: FileChangeKind): void {
    if (this.ended || this.o.hooks.hasHooks?.('FileChanged') === false) return;
    const work = this.runHooks('FileChanged', forEvent('FileChanged', this.envelope(), { file_path: file, event: kind }), undefined, {
      CLAUDE_ENV_FILE: this.envFile,
    }).then((result) => {
      emitSystemMessages(this.o.emit, MAIN, result);
      this.fileWatch.add(hookSpecificValues(result, 'watchPaths').flat());
    });
    this.background.add(work);
    void work.catch(() => undefined).finally(() => this.background.delete(work));
  }

  /**
   * Sends one prompt through UserPromptSubmit and the agent. One prompt at a time.
   * `attachments`: texts the user attached (chat context), given to the model just before the
   * prompt; hooks see the prompt as typed.
   */
  async submit(prompt: string, signal: AbortSignal, attachments: readonly string[] = []): Promise<SubmitResult> {
    if (this.running) throw new Error('a prompt is already running in this session');
    this.clearIdle();
    const work = this.submitNow(prompt, signal, attachments);
    this.running = work;
    try {
      return await work;
    } finally {
      this.running = undefined;
      this.armIdle();
    }
  }

  private async submitNow(prompt: string, signal: AbortSignal, attachments: readonly string[]): Promise<SubmitResult> {
    this.promptId = randomUUID();
    const submitted = await this.runHooks('UserPromptSubmit', HookContext.forUserPromptSubmit(this.envelope(), { prompt }), signal);
    emitSystemMessages(this.o.emit, MAIN, submitted);
    if (submitted.decision === 'deny' || submitted.decision === 'stop') {
      const reason = submitted.reason ?? 'blocked by a UserPromptSubmit hook';
      this.transcript.write({ type: 'prompt_blocked', agent_id: MAIN.agentId, prompt, reason });
      this.o.emit({
        type: 'systemMessage',
        agent: MAIN,
        text: `UserPromptSubmit operation blocked by hook:\n${reason}\n\nOriginal prompt: ${prompt}`,
        source: 'UserPromptSubmit',
      });
      return { status: 'blocked', reason };
    }
    const rewritten = submitted.updatedInput?.prompt;
    let finalPrompt = typeof rewritten === 'string' ? rewritten : prompt;
    if (this.o.slashCommands && finalPrompt.trimStart().startsWith('/')) {
      const expanded = await expandPrompt(finalPrompt, {
        ctx: this.ctx,
        agent: MAIN,
        envelope: this.envelope(),
        tools: this.tools,
        commands: this.o.slashCommands,
        runHooks: (event, input, s) => this.runHooks(event, input, s),
        signal,
      });
      if (expanded.kind === 'refused') {
        this.transcript.write({ type: 'prompt_blocked', agent_id: MAIN.agentId, prompt, reason: expanded.reason });
        this.o.emit({ type: 'systemMessage', agent: MAIN, text: expanded.reason, source: 'UserPromptExpansion' });
        return { status: 'blocked', reason: expanded.reason };
      }
      if (expanded.kind === 'expanded') finalPrompt = expanded.prompt;
    }
    // The checkpoint is the state just before this prompt's context and prompt reach the conversation.
    this.checkpoints.beginTurn(finalPrompt, {
      length: this.conversation.length,
      compactions: this.checkpoints.compactions,
      pendingContext: [...this.pendingContext],
    });
    this.takeContext(submitted, 'UserPromptSubmit');
    if (this.pendingContext.length > 0) {
      this.conversation.append({ role: 'user', content: `<system-reminder>\n${this.pendingContext.join('\n')}\n</system-reminder>` });
      this.pendingContext = [];
    }
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
      beforeInference: () => this.maybeAutoCompact(signal),
    });
  }

  /**
   * Compacts the conversation: PreCompact hooks run (their plain stdout is added
   * to the instructions; a block skips compaction), older turns are summarized by the model
   * and replaced by the summary, and SessionStart fires with `source: compact`.
   */
  async compact(trigger: 'manual' | 'auto', signal: AbortSignal, customInstructions?: string): Promise<CompactionResult> {
    const pre = await this.runHooks(
      'PreCompact',
      HookContext.forPreCompact(this.envelope(), { trigger, custom_instructions: customInstructions ?? null }),
      signal,
    );
    emitSystemMessages(this.o.emit, MAIN, pre);
    if (pre.decision === 'deny' || pre.decision === 'stop') {
      const reason = `compaction blocked by a PreCompact hook${pre.reason ? `: ${pre.reason}` : ''}`;
      this.o.emit({ type: 'systemMessage', agent: MAIN, text: reason, source: 'PreCompact' });
      return { status: 'skipped', reason };
    }
    const messages = this.conversation.messages;
    const cut = compactionCut(messages);
    if (cut === 0) return { status: 'skipped', reason: 'the conversation is too short to compact' };
    const instructions = [...(customInstructions ? [customInstructions] : []), ...pre.plainOutputs, ...pre.additionalContext];
    const summary = await summarize(this.o.model, messages.slice(0, cut), instructions, signal, this.o.modelName);
    const kept = messages.length - cut;
    this.conversation.replacePrefix([{ role: 'user', content: compactionNote(summary) }], kept);
    this.checkpoints.noteCompaction();
    this.transcript.write({ type: 'compaction', agent_id: MAIN.agentId, trigger, summary, kept, summarized: cut });
    this.o.emit({
      type: 'systemMessage',
      agent: MAIN,
      text: `Conversation compacted (${trigger}): ${cut} messages summarized, ${kept} kept.`,
      source: 'PreCompact',
    });
    this.reportedPrompt = undefined;
    const post = await this.runHooks('PostCompact', forEvent('PostCompact', this.envelope(), { trigger, compact_summary: summary }), signal);
    emitSystemMessages(this.o.emit, MAIN, post);
    const started = await this.runHooks(
      'SessionStart',
      HookContext.forSessionStart(this.envelope(), { source: 'compact', model: this.o.model.label }),
      signal,
      { CLAUDE_ENV_FILE: this.envFile },
    );
    emitSystemMessages(this.o.emit, MAIN, started);
    const note = contextNote(started, 'SessionStart:compact');
    if (note !== undefined) this.conversation.append({ role: 'user', content: `<system-reminder>\n${note}\n</system-reminder>` });
    return { status: 'compacted', summarized: cut, kept, summary };
  }

  private async maybeAutoCompact(signal: AbortSignal): Promise<void> {
    const budget = this.o.compactionBudgetTokens ?? 0;
    if (budget <= 0) return;
    const size = this.contextTokens();
    if (size <= budget) return;
    // The last compaction could not get under the budget (the recent turns it keeps are that
    // large): compacting again before the conversation has grown would only summarize the
    // summary, one model call per step. Growth is the messages' own (estimated in both cases),
    // so the model's count, which also covers the system prompt and tools, cannot fake it.
    if (this.stillOverAfterCompaction !== undefined && estimateTokens(this.conversation.messages) - this.stillOverAfterCompaction < budget / 4) return;
    try {
      const result = await this.compact('auto', signal);
      if (result.status !== 'compacted') return;
      const after = estimateTokens(this.conversation.messages);
      // Kept even when under the budget: the model's count (system prompt and tools included)
      // may still be over it, and must not set off a compaction per step.
      this.stillOverAfterCompaction = after;
      if (after > budget) {
        this.o.emit({
          type: 'systemMessage',
          agent: MAIN,
          text: `The conversation is still over the compaction budget (~${after} of ${budget} tokens): the recent turns alone are that large. It is compacted again once it has grown.`,
          source: 'PreCompact',
        });
      }
    } catch (error) {
      if (signal.aborted) return;
      this.o.emit({ type: 'systemMessage', agent: MAIN, text: `Automatic compaction failed: ${thrownMessage(error)}`, source: 'PreCompact' });
    }
  }

  /**
   * Restore Checkpoint: the files the agent changed since prompt `checkpointId` go back (a
   * file changed meanwhile by someone else is left alone and reported), and the conversation
   * is cut to just before that prompt; the transcript records the cut, so a resumed session
   * continues from it. No hook fires (Claude Code fires none on /rewind either).
   */
  async rewind(checkpointId: number): Promise<RewindResult> {
    if (this.running) return { ok: false, error: 'the agent is still working; press Stop first' };
    const mark = this.checkpoints.markOf(checkpointId);
    const checkpoint = this.checkpoints.list().find((c) => c.id === checkpointId);
    if (!mark || !checkpoint) return { ok: false, error: `there is no checkpoint ${checkpointId} in this session` };
    if (mark.compactions !== this.checkpoints.compactions)
      return { ok: false, error: 'the conversation was compacted after this message, so it cannot be cut back to it; undo the files per turn instead' };
    const files = await this.checkpoints.restoreTo(checkpointId);
    const messagesRemoved = this.conversation.length - mark.length;
    this.conversation.truncate(mark.length);
    this.pendingContext = [...mark.pendingContext];
    this.transcript.write({
      type: 'rewind',
      agent_id: MAIN.agentId,
      checkpoint: checkpointId,
      kept: mark.length,
      files_restored: files.restored.map((r) => r.path),
      ...(files.conflicts.length > 0 ? { files_conflicting: files.conflicts.map((c) => c.path) } : {}),
    });
    return { ok: true, prompt: checkpoint.prompt, files, messagesRemoved };
  }

  /**
   * Undo of one prompt's file changes (one file, or all), keeping the conversation. The model
   * is told at the next prompt, so it does not build on edits that are gone.
   */
  async undoEdits(checkpointId: number, filePath?: string): Promise<RestoreReport> {
    const report = await this.checkpoints.undo(checkpointId, filePath);
    const undone = report.restored.map((r) => r.path);
    if (undone.length > 0) {
      this.transcript.write({ type: 'file_undo', agent_id: MAIN.agentId, checkpoint: checkpointId, files: undone });
      this.pendingContext.push(`The user undid your changes to ${undone.join(', ')}: these files are back to how they were before that turn.`);
    }
    return report;
  }

  /**
   * The conversation's size in tokens: the prompt tokens the model reported for its last call
   * plus an estimate of what was appended since; the estimate alone before any report (a
   * model that reports no usage, a resumed session, right after a compaction). Never below the
   * estimate of the whole conversation: a server that under-reports (a constant, or cached
   * tokens left out) must not let requests grow without bound.
   */
  private contextTokens(): number {
    const messages = this.conversation.messages;
    const reported = this.reportedPrompt;
    const estimate = estimateTokens(messages);
    if (reported === undefined || reported.messages > messages.length) return estimate;
    return Math.max(estimate, reported.tokens + estimateTokens(messages.slice(reported.messages)));
  }

  /** Fires SessionEnd (reason clear | prompt_input_exit | other) within a short budget, then closes the transcript. */
  async end(reason: 'clear' | 'prompt_input_exit' | 'logout' | 'other'): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.clearIdle();
    this.fileWatch.close();
    const signal = AbortSignal.timeout(SESSION_END_TIMEOUT_MS);
    // Past the budget the session ends anyway, whether or not the hooks heed the signal.
    // Notifications still running for this session (a permission prompt's) finish first, in the same budget.
    await raceAbort(Promise.allSettled([...this.background]), signal).catch(() => undefined);
    await raceAbort(this.runHooks('SessionEnd', HookContext.forSessionEnd(this.envelope(), { reason }), signal), signal).catch(() => undefined);
    this.transcript.write({ type: 'session_end', session_id: this.id, reason });
    this.transcript.close();
  }

  /** After a turn: tell Notification hooks when the user has not answered for a while. */
  private armIdle(): void {
    const ms = this.o.idleNotificationMs ?? 0;
    if (ms <= 0 || this.ended) return;
    this.idleTimer = setTimeout(
      () => {
        this.idleTimer = undefined;
        void this.runHooks(
          'Notification',
          HookContext.forNotification(this.envelope(), { message: 'Hookwise is waiting for your input', notification_type: 'idle_prompt' }),
        );
      },
      safeTimerDelay(ms, 0),
    ); // a setting: never past Node's timer limit, where it would fire at once
    // An idle reminder must never keep a headless process alive.
    this.idleTimer.unref?.();
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
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

/**
 * "<hookName> hook additional context: …" from an event's plain outputs and additionalContext
 * (SessionStart and UserPromptSubmit treat plain stdout as context); undefined when empty.
 * Claude Code caps each UserPromptSubmit output at 10,000 characters.
 */
function contextNote(result: HookEventResult, hookName: string): string | undefined {
  const cap = result.event === 'UserPromptSubmit' ? capHookText : (c: string): string => c;
  const context = [...result.plainOutputs, ...result.additionalContext].map((c) => cap(c.trim())).filter((c) => c !== '');
  return context.length > 0 ? `${hookName} hook additional context: ${context.join('\n')}` : undefined;
}

/** Most characters of one UserPromptSubmit output that reach the model. */
export const USER_PROMPT_CONTEXT_CAP = 10_000;

/** Claude Code's cut of an over-long UserPromptSubmit output, with its marker. */
function capHookText(text: string): string {
  if (text.length <= USER_PROMPT_CONTEXT_CAP) return text;
  return `${text.slice(0, USER_PROMPT_CONTEXT_CAP)}… [output truncated - exceeded ${USER_PROMPT_CONTEXT_CAP} characters]`;
}
