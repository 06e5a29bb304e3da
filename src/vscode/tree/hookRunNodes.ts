import type { HookRunRecord } from '../../hooks/hookRunTypes';

/**
 * The nodes of the Hook Runs tree: sessions → agents (subagents nested under their parent) →
 * event occurrences → executions, plus the step nodes that collapse quiet occurrences. Nodes
 * are stable objects that mutate in place (see HookRunsModel).
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
