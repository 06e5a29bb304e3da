import { isQuietBuiltinRun, runDecidedSomething } from './builtinHooks';
import { needsAttention } from './hookRunLabels';
import type { AgentNode, HookRunsFilter, HookRunsNode, OccurrenceNode, StepNode } from './hookRunNodes';
import { runMatchesQuery, type HookRunQuery } from './hookRunQuery';

/**
 * Which of the stored nodes the Hook Runs tree shows, and how: the attention filter, the
 * search query, the built-in toggle and the grouping of quiet occurrences into their step.
 * Holds the options and the step nodes; the model owns the nodes and says when the options change.
 */
export class HookRunsVisibility {
  filter: HookRunsFilter = 'all';
  queryText = '';
  query: HookRunQuery | undefined;
  showBuiltin = false;
  groupQuiet = false;
  /** Step nodes, stable per agent and step so the tree keeps their expansion state. */
  private readonly stepNodes = new WeakMap<AgentNode, Map<number, StepNode>>();

  /** The node's parent as shown (a quiet occurrence sits in its step when grouped; sessions have none). */
  parentOf(node: HookRunsNode): HookRunsNode | undefined {
    switch (node.kind) {
      case 'session':
        return undefined;
      case 'agent':
        return node.parent ?? node.session;
      case 'step':
        return node.agent;
      case 'occurrence':
        return this.groupQuiet && this.isQuiet(node) ? this.stepNode(node.agent, node.step) : node.agent;
      case 'run':
        return node.occurrence;
    }
  }

  /** The node's children as grouped, before filtering. */
  allChildren(node: HookRunsNode): HookRunsNode[] {
    switch (node.kind) {
      case 'session':
        return [...node.agents];
      case 'agent':
        return this.groupQuiet ? this.grouped(node) : [...node.children];
      case 'step':
        return [...node.occurrences];
      case 'occurrence':
        return [...node.runs];
      case 'run':
        return [];
    }
  }

  /** The agent's children with its undecided occurrences collapsed into one node per step, where the step's first one was. */
  grouped(agent: AgentNode): HookRunsNode[] {
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

  /** The one step node of `agent`'s step `stepIndex`. */
  stepNode(agent: AgentNode, stepIndex: number): StepNode {
    let steps = this.stepNodes.get(agent);
    if (!steps) this.stepNodes.set(agent, (steps = new Map()));
    let node = steps.get(stepIndex);
    if (!node) steps.set(stepIndex, (node = { kind: 'step', agent, step: stepIndex, occurrences: [] }));
    return node;
  }

  /** Finished, and none of its shown runs decided anything. */
  isQuiet(occurrence: OccurrenceNode): boolean {
    return occurrence.runs.every((r) => r.record.status !== 'running' && (!runDecidedSomething(r.record) || !this.matches(r)));
  }

  /** No filter and built-ins shown: every node is shown, no check needed. */
  showsEverything(): boolean {
    return this.filter === 'all' && this.showBuiltin && !this.query;
  }

  /**
   * Whether a change to one node can be refreshed as that node alone. Filtered, a status
   * change can show or hide whole branches; grouped, an occurrence moves into its step when
   * its last hook finishes: both refresh from the root.
   */
  refreshesSingleNodes(): boolean {
    return this.filter === 'all' && !this.groupQuiet && !this.query;
  }

  /** True when the node is, or contains, a run the filter and the built-in toggle keep. */
  matches(node: HookRunsNode): boolean {
    switch (node.kind) {
      case 'run':
        if (!this.showBuiltin && isQuietBuiltinRun(node.record)) return false;
        if (this.query && !runMatchesQuery(node.record, this.query)) return false;
        return this.filter === 'all' || needsAttention(node.record.status, node.record);
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
}
