import type { HookRunObserver, HookRunRecord } from '../../hooks/hookRunTypes';
import { isQuietBuiltinRun, runDecidedSomething } from './builtinHooks';
import { needsAttention } from './hookRunLabels';
import { parseHookRunQuery, runMatchesQuery, type HookRunQuery } from './hookRunQuery';

/**
 * The Hook Runs tree as data, without vscode: sessions → agents (subagents nested under
 * their parent) → event occurrences → executions. Nodes are stable objects that mutate in
 * place, so the TreeDataProvider can refresh exactly the node that changed; every change is
 * reported through `onChange` with the node whose children or label changed (undefined =
 * the root list). Memory is bounded: at most `maxRunsPerSession` executions per session
 * (oldest dropped first) and `maxSessions` sessions. Built-in limit hooks that decided nothing
 * are hidden unless `showBuiltin` is on; a node left with nothing to show is hidden too. With
 * `groupQuiet`, the occurrences where no hook decided anything are collapsed into one node per
 * agent step (a step starts at each BeforeStep).
 */

export interface SessionNode {
  readonly kind: 'session';
  readonly sessionId: string;
  readonly startedAt: number;
  /** Top-level agents (normally one: main). */
  readonly agents: AgentNode[];
  /** Executions in arrival order, for eviction. */
  readonly runs: Map<string, RunNode>;
}

export interface AgentNode {
  readonly kind: 'agent';
  readonly session: SessionNode;
  readonly agentId: string;
  agentType: string;
  readonly parentAgentId: string | null;
  /** The parent agent node, when nested. */
  readonly parent: AgentNode | undefined;
  description: string | undefined;
  /** Subagents and occurrences, in the order they first appeared. */
  readonly children: (AgentNode | OccurrenceNode)[];
  /** The step the agent is in: the `step_index` of its last BeforeStep (0 before the first). */
  currentStep: number;
}

export interface OccurrenceNode {
  readonly kind: 'occurrence';
  readonly agent: AgentNode;
  readonly occurrenceId: string;
  /** The first record seen: event, match value and input are the same for all runs of an occurrence. */
  readonly first: HookRunRecord;
  readonly runs: RunNode[];
  /** The agent step it happened in (see AgentNode.currentStep). */
  readonly step: number;
}

/** The undecided occurrences of one agent step, collapsed into one node (only with `groupQuiet`). */
export interface StepNode {
  readonly kind: 'step';
  readonly agent: AgentNode;
  readonly step: number;
  /** Filled each time the agent's children are listed. */
  readonly occurrences: OccurrenceNode[];
}

export interface RunNode {
  readonly kind: 'run';
  readonly occurrence: OccurrenceNode;
  record: HookRunRecord;
}

export type HookRunsNode = SessionNode | AgentNode | StepNode | OccurrenceNode | RunNode;

/** Which runs the tree shows: all, or only blocked / asked / failed ones. */
export type HookRunsFilter = 'all' | 'attention';

/** Called with the nodes to refresh; `undefined` in the list means the root. */
export type HookRunsChangeListener = (node: HookRunsNode | undefined) => void;

export interface HookRunsModelOptions {
  readonly maxRunsPerSession?: number;
  readonly maxSessions?: number;
}

export class HookRunsModel implements HookRunObserver {
  private sessions: SessionNode[] = [];
  private readonly sessionById = new Map<string, SessionNode>();
  private readonly agentByKey = new Map<string, AgentNode>();
  private readonly occurrenceById = new Map<string, OccurrenceNode>();
  private readonly runById = new Map<string, RunNode>();
  /** Subagent descriptions announced before their first hook ran (agentId → description). */
  private readonly descriptions = new Map<string, string>();
  private filterValue: HookRunsFilter = 'all';
  private queryText = '';
  private queryValue: HookRunQuery | undefined;
  private showBuiltinValue = false;
  private groupQuietValue = false;
  /** Step nodes, stable per agent and step so the tree keeps their expansion state. */
  private readonly stepNodes = new WeakMap<AgentNode, Map<number, StepNode>>();
  private maxRunsPerSession: number;
  private readonly maxSessions: number;
  private readonly listeners = new Set<HookRunsChangeListener>();

  constructor(options: HookRunsModelOptions = {}) {
    this.maxRunsPerSession = Math.max(1, options.maxRunsPerSession ?? 5000);
    this.maxSessions = Math.max(1, options.maxSessions ?? 50);
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: HookRunsChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onHookStarted(record: HookRunRecord): void {
    this.upsert(record);
  }

  onHookFinished(record: HookRunRecord): void {
    this.upsert(record);
  }

  onAskResolved(record: HookRunRecord): void {
    this.upsert(record);
  }

  /** Labels a subagent with its task description (from the agent's `runStarted` event). */
  describeAgent(agentId: string, description: string): void {
    if (this.descriptions.size > 1000) this.descriptions.clear();
    this.descriptions.set(agentId, description);
    for (const agent of this.agentByKey.values()) {
      if (agent.agentId === agentId && agent.description !== description) {
        agent.description = description;
        this.emit(agent);
      }
    }
  }

  get filter(): HookRunsFilter {
    return this.filterValue;
  }

  set filter(value: HookRunsFilter) {
    if (value === this.filterValue) return;
    this.filterValue = value;
    this.emit(undefined);
  }

  /** The search text (see hookRunQuery.ts); '' shows every run. */
  get query(): string {
    return this.queryText;
  }

  set query(text: string) {
    if (text === this.queryText) return;
    this.queryText = text;
    this.queryValue = parseHookRunQuery(text);
    this.emit(undefined);
  }

  /** Whether built-in hooks that decided nothing are shown (off by default: they run on every step). */
  get showBuiltin(): boolean {
    return this.showBuiltinValue;
  }

  set showBuiltin(value: boolean) {
    if (value === this.showBuiltinValue) return;
    this.showBuiltinValue = value;
    this.emit(undefined);
  }

  /** Whether occurrences where no hook decided are collapsed into their step. */
  get groupQuiet(): boolean {
    return this.groupQuietValue;
  }

  set groupQuiet(value: boolean) {
    if (value === this.groupQuietValue) return;
    this.groupQuietValue = value;
    this.emit(undefined);
  }

  /** Changes the bound; takes effect as runs arrive (the oldest go first). */
  setMaxRunsPerSession(max: number): void {
    this.maxRunsPerSession = Math.max(1, max);
    for (const session of this.sessions) this.evict(session);
  }

  /** Forgets everything. */
  clear(): void {
    this.sessions = [];
    this.sessionById.clear();
    this.agentByKey.clear();
    this.occurrenceById.clear();
    this.runById.clear();
    this.emit(undefined);
  }

  /** Children as the tree shows them (filter applied). Sessions: newest first. */
  getChildren(node?: HookRunsNode): HookRunsNode[] {
    const all = this.allChildren(node);
    return this.showsEverything() ? all : all.filter((child) => this.matches(child));
  }

  /** The node's parent (undefined for sessions). */
  getParent(node: HookRunsNode): HookRunsNode | undefined {
    switch (node.kind) {
      case 'session':
        return undefined;
      case 'agent':
        return node.parent ?? node.session;
      case 'step':
        return node.agent;
      case 'occurrence':
        return this.groupQuietValue && this.isQuiet(node) ? this.stepNode(node.agent, node.step) : node.agent;
      case 'run':
        return node.occurrence;
    }
  }

  /** The node of one execution, if still kept. */
  findRun(runId: string): RunNode | undefined {
    return this.runById.get(runId);
  }

  /** Number of executions kept in `sessionId`. */
  runCount(sessionId: string): number {
    return this.sessionById.get(sessionId)?.runs.size ?? 0;
  }

  private allChildren(node?: HookRunsNode): HookRunsNode[] {
    if (!node) return [...this.sessions].reverse();
    switch (node.kind) {
      case 'session':
        return [...node.agents];
      case 'agent':
        return this.groupQuietValue ? this.grouped(node) : [...node.children];
      case 'step':
        return [...node.occurrences];
      case 'occurrence':
        return [...node.runs];
      case 'run':
        return [];
    }
  }

  /** The agent's children with its undecided occurrences collapsed into one node per step, where the step's first one was. */
  private grouped(agent: AgentNode): HookRunsNode[] {
    const out: HookRunsNode[] = [];
    const filled = new Set<StepNode>();
    for (const child of agent.children) {
      if (child.kind !== 'occurrence' || !this.isQuiet(child) || !this.matches(child)) {
        out.push(child);
        continue;
      }
      const step = this.stepNode(agent, child.step);
      if (!filled.has(step)) {
        step.occurrences.length = 0;
        filled.add(step);
        out.push(step);
      }
      step.occurrences.push(child);
    }
    return out;
  }

  private stepNode(agent: AgentNode, stepIndex: number): StepNode {
    let steps = this.stepNodes.get(agent);
    if (!steps) this.stepNodes.set(agent, (steps = new Map()));
    let node = steps.get(stepIndex);
    if (!node) steps.set(stepIndex, (node = { kind: 'step', agent, step: stepIndex, occurrences: [] }));
    return node;
  }

  /** Finished, and none of its shown runs decided anything. */
  private isQuiet(occurrence: OccurrenceNode): boolean {
    return occurrence.runs.every((r) => r.record.status !== 'running' && (!runDecidedSomething(r.record) || !this.matches(r)));
  }

  /** No filter and built-ins shown: every node is shown, no check needed. */
  private showsEverything(): boolean {
    return this.filterValue === 'all' && this.showBuiltinValue && !this.queryValue;
  }

  /** True when the node is, or contains, a run the filter and the built-in toggle keep. */
  private matches(node: HookRunsNode): boolean {
    switch (node.kind) {
      case 'run':
        if (!this.showBuiltinValue && isQuietBuiltinRun(node.record)) return false;
        if (this.queryValue && !runMatchesQuery(node.record, this.queryValue)) return false;
        return this.filterValue === 'all' || needsAttention(node.record.status, node.record);
      case 'occurrence':
        return node.runs.some((r) => this.matches(r));
      case 'agent':
        return node.children.some((c) => this.matches(c));
      case 'step':
        return node.occurrences.some((o) => this.matches(o));
      case 'session':
        return node.agents.some((a) => this.matches(a));
    }
  }

  private upsert(record: HookRunRecord): void {
    const existing = this.runById.get(record.runId);
    if (existing) {
      const wasShown = this.matches(existing);
      existing.record = record;
      const shown = this.matches(existing);
      // The occurrence's item sums up its runs (spinner, "2 hooks · deny"): refresh it, which
      // refreshes the run too. A run that starts or stops being shown can show or hide its
      // ancestors. A hidden run that stays hidden costs nothing.
      if (wasShown && shown) this.emit(existing.occurrence);
      else if (wasShown !== shown) this.emitAround(existing);
      return;
    }
    const session = this.session(record.sessionId, record.startedAt);
    const agent = this.agent(session, record);
    let occurrence = this.occurrenceById.get(record.occurrenceId);
    const isNew = !occurrence;
    if (!occurrence) {
      if (record.event === 'BeforeStep') {
        const index = record.input['step_index'];
        agent.currentStep = typeof index === 'number' ? index : agent.currentStep + 1;
      }
      occurrence = { kind: 'occurrence', agent, occurrenceId: record.occurrenceId, first: record, runs: [], step: agent.currentStep };
      this.occurrenceById.set(record.occurrenceId, occurrence);
      agent.children.push(occurrence);
    }
    const run: RunNode = { kind: 'run', occurrence, record };
    occurrence.runs.push(run);
    this.runById.set(record.runId, run);
    session.runs.set(record.runId, run);
    if (this.showsEverything()) this.emit(isNew ? agent : occurrence);
    else if (this.matches(run)) this.emitAround(run);
    this.evict(session);
  }

  /**
   * `run` appeared or disappeared: refreshes its nearest ancestor that stays shown either way
   * (it has another shown child), or the root when the whole branch appears or goes.
   */
  private emitAround(run: RunNode): void {
    let child: HookRunsNode = run;
    for (let parent = this.getParent(run); parent; child = parent, parent = this.getParent(parent)) {
      const other = child;
      if (this.allChildren(parent).some((c) => c !== other && this.matches(c))) return this.emit(parent);
    }
    this.emit(undefined);
  }

  private session(sessionId: string, startedAt: number): SessionNode {
    let session = this.sessionById.get(sessionId);
    if (!session) {
      session = { kind: 'session', sessionId, startedAt, agents: [], runs: new Map() };
      this.sessionById.set(sessionId, session);
      this.sessions.push(session);
      while (this.sessions.length > this.maxSessions) this.dropSession(this.sessions[0] as SessionNode);
      this.emit(undefined);
    }
    return session;
  }

  private agent(session: SessionNode, record: HookRunRecord): AgentNode {
    const key = `${session.sessionId}\u0000${record.agentId}`;
    const known = this.agentByKey.get(key);
    if (known) {
      if (known.agentType === '?' && record.agentType) {
        known.agentType = record.agentType;
        this.emit(known);
      }
      return known;
    }
    // A subagent nests under its parent; a parent not seen yet gets a placeholder.
    const parent =
      record.parentAgentId === null
        ? undefined
        : this.agent(session, {
            ...record,
            agentId: record.parentAgentId,
            parentAgentId: null,
            agentType: this.agentByKey.get(`${session.sessionId}\u0000${record.parentAgentId}`)?.agentType ?? '?',
          });
    const node: AgentNode = {
      kind: 'agent',
      session,
      agentId: record.agentId,
      agentType: record.agentType,
      parentAgentId: record.parentAgentId,
      parent,
      description: this.descriptions.get(record.agentId),
      children: [],
      currentStep: 0,
    };
    this.agentByKey.set(key, node);
    if (parent) {
      parent.children.push(node);
      this.emit(parent);
    } else {
      session.agents.push(node);
      this.emit(session);
    }
    return node;
  }

  /** Drops the session's oldest executions beyond the bound, and occurrences left empty. */
  private evict(session: SessionNode): void {
    while (session.runs.size > this.maxRunsPerSession) {
      const [runId, run] = session.runs.entries().next().value as [string, RunNode];
      session.runs.delete(runId);
      this.runById.delete(runId);
      const occurrence = run.occurrence;
      const index = occurrence.runs.indexOf(run);
      if (index >= 0) occurrence.runs.splice(index, 1);
      if (occurrence.runs.length === 0) {
        this.occurrenceById.delete(occurrence.occurrenceId);
        const siblings = occurrence.agent.children;
        const at = siblings.indexOf(occurrence);
        if (at >= 0) siblings.splice(at, 1);
        this.emit(occurrence.agent);
      } else {
        this.emit(occurrence);
      }
    }
  }

  private dropSession(session: SessionNode): void {
    this.sessions.splice(this.sessions.indexOf(session), 1);
    this.sessionById.delete(session.sessionId);
    for (const [runId, run] of session.runs) {
      this.runById.delete(runId);
      this.occurrenceById.delete(run.occurrence.occurrenceId);
    }
    for (const key of [...this.agentByKey.keys()]) if (key.startsWith(`${session.sessionId}\u0000`)) this.agentByKey.delete(key);
  }

  private emit(node: HookRunsNode | undefined): void {
    // Filtered, a status change can show or hide whole branches: refresh from the root
    // (still throttled by the provider).
    // Grouped, an occurrence moves into its step when its last hook finishes: same.
    const target = this.filterValue === 'all' && !this.groupQuietValue && !this.queryValue ? node : undefined;
    for (const listener of this.listeners) listener(target);
  }
}
