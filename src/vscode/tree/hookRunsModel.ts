import type { HookRunObserver, HookRunRecord } from '../../hooks/hookRunTypes';
import type { AgentNode, HookRunsFilter, HookRunsNode, OccurrenceNode, RunNode, SessionNode } from './hookRunNodes';
import { HookRunsVisibility } from './hookRunsFilter';
import { parseHookRunQuery } from './hookRunQuery';

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
  private readonly view = new HookRunsVisibility();
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
    return this.view.filter;
  }

  set filter(value: HookRunsFilter) {
    this.setView('filter', value);
  }

  /** The search text (see hookRunQuery.ts); '' shows every run. */
  get query(): string {
    return this.view.queryText;
  }

  set query(text: string) {
    if (text === this.view.queryText) return;
    this.view.queryText = text;
    this.view.query = parseHookRunQuery(text);
    this.emit(undefined);
  }

  /** Whether built-in hooks that decided nothing are shown (off by default: they run on every step). */
  get showBuiltin(): boolean {
    return this.view.showBuiltin;
  }

  set showBuiltin(value: boolean) {
    this.setView('showBuiltin', value);
  }

  /** Whether occurrences where no hook decided are collapsed into their step. */
  get groupQuiet(): boolean {
    return this.view.groupQuiet;
  }

  set groupQuiet(value: boolean) {
    this.setView('groupQuiet', value);
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
    return this.view.showsEverything() ? all : all.filter((child) => this.view.matches(child));
  }

  /** The node's parent (undefined for sessions). */
  getParent(node: HookRunsNode): HookRunsNode | undefined {
    return this.view.parentOf(node);
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
    return node ? this.view.allChildren(node) : [...this.sessions].reverse();
  }

  private upsert(record: HookRunRecord): void {
    const existing = this.runById.get(record.runId);
    if (existing) {
      const wasShown = this.view.matches(existing);
      existing.record = record;
      const shown = this.view.matches(existing);
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
    if (this.view.showsEverything()) this.emit(isNew ? agent : occurrence);
    else if (this.view.matches(run)) this.emitAround(run);
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
      if (this.allChildren(parent).some((c) => c !== other && this.view.matches(c))) return this.emit(parent);
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

  private setView<K extends 'filter' | 'showBuiltin' | 'groupQuiet'>(key: K, value: HookRunsVisibility[K]): void {
    if (value === this.view[key]) return;
    this.view[key] = value;
    this.emit(undefined);
  }

  private emit(node: HookRunsNode | undefined): void {
    // Otherwise from the root (still throttled by the provider).
    const target = this.view.refreshesSingleNodes() ? node : undefined;
    for (const listener of this.listeners) listener(target);
  }
}
