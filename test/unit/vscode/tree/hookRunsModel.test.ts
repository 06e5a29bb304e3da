import { describe, expect, it } from 'vitest';
import { HookRunsModel } from '../../../../src/vscode/tree/hookRunsModel';
import type { AgentNode, HookRunsNode, OccurrenceNode, RunNode, SessionNode } from '../../../../src/vscode/tree/hookRunNodes';
import { record } from '../../../support/hookRunFixtures';

const labelOf = (n: HookRunsNode): string => {
  switch (n.kind) {
    case 'session':
      return `session ${n.sessionId}`;
    case 'agent':
      return `agent ${n.agentType}${n.description ? ` (${n.description})` : ''}`;
    case 'step':
      return `step ${n.step}`;
    case 'occurrence':
      return `occ ${n.occurrenceId}`;
    case 'run':
      return `run ${n.record.runId} ${n.record.status}`;
  }
};

/** The visible tree as indented lines. */
function dump(model: HookRunsModel, node?: HookRunsNode, depth = 0): string[] {
  return model.getChildren(node).flatMap((child) => [`${'  '.repeat(depth)}${labelOf(child)}`, ...dump(model, child, depth + 1)]);
}

describe('HookRunsModel', () => {
  it('groups runs: session → agent → occurrence → run, runs in start order', () => {
    const model = new HookRunsModel();
    model.onHookStarted(record({ runId: 'a' }));
    model.onHookStarted(record({ runId: 'b', hookId: 'h2' }));
    model.onHookStarted(record({ runId: 'c', occurrenceId: 'o2', event: 'PostToolUse' }));
    expect(dump(model)).toEqual([
      'session s1',
      '  agent main',
      '    occ o1',
      '      run a running',
      '      run b running',
      '    occ o2',
      '      run c running',
    ]);
  });

  it('updates a run in place when it finishes (same node object)', () => {
    const model = new HookRunsModel();
    model.onHookStarted(record());
    const [session] = model.getChildren() as SessionNode[];
    const [agent] = model.getChildren(session) as AgentNode[];
    const [occ] = model.getChildren(agent) as OccurrenceNode[];
    const [run] = model.getChildren(occ) as RunNode[];
    model.onHookFinished(record({ status: 'blocked', durationMs: 12, outcome: { decision: 'deny', reason: 'no' } }));
    expect(model.getChildren(occ)[0]).toBe(run);
    expect(run?.record.status).toBe('blocked');
    model.onAskResolved(record({ status: 'asked', permission: { decision: 'allow', decidedBy: 'user' } }));
    expect(run?.record.permission?.decision).toBe('allow');
  });

  it('nests subagents under their parent agent, interleaved with occurrences in arrival order', () => {
    const model = new HookRunsModel();
    model.onHookStarted(record({ runId: 'm1', occurrenceId: 'om1' }));
    model.describeAgent('sub1', 'find the tests');
    model.onHookStarted(record({ runId: 's1', occurrenceId: 'os1', agentId: 'sub1', parentAgentId: 'main', agentType: 'Explore' }));
    model.onHookStarted(record({ runId: 's2', occurrenceId: 'os2', agentId: 'sub2', parentAgentId: 'sub1', agentType: 'general-purpose' }));
    model.onHookStarted(record({ runId: 'm2', occurrenceId: 'om2' }));
    expect(dump(model)).toEqual([
      'session s1',
      '  agent main',
      '    occ om1',
      '      run m1 running',
      '    agent Explore (find the tests)',
      '      occ os1',
      '        run s1 running',
      '      agent general-purpose',
      '        occ os2',
      '          run s2 running',
      '    occ om2',
      '      run m2 running',
    ]);
    const sub2 = model.findRun('s2')!.occurrence.agent;
    expect(model.getParent(sub2)).toBe(model.findRun('s1')!.occurrence.agent);
    expect(model.getParent(model.getParent(sub2)!)).toBe(model.findRun('m1')!.occurrence.agent);
  });

  it('creates a placeholder for a parent agent not seen yet and fills in its type later', () => {
    const model = new HookRunsModel();
    model.onHookStarted(record({ runId: 'x', occurrenceId: 'ox', agentId: 'sub', parentAgentId: 'main', agentType: 'Explore' }));
    expect(dump(model)[1]).toBe('  agent ?');
    model.onHookStarted(record({ runId: 'y', occurrenceId: 'oy' }));
    expect(dump(model)[1]).toBe('  agent main');
  });

  it('labels a subagent described after its first run', () => {
    const model = new HookRunsModel();
    const changes: (HookRunsNode | undefined)[] = [];
    model.onHookStarted(record({ agentId: 'sub', parentAgentId: 'main', agentType: 'Explore' }));
    model.onChange((n) => changes.push(n));
    model.describeAgent('sub', 'look around');
    const sub = model.findRun('r1')!.occurrence.agent;
    expect(sub.description).toBe('look around');
    expect(changes).toEqual([sub]);
  });

  it('lists sessions newest first', () => {
    const model = new HookRunsModel();
    model.onHookStarted(record({ sessionId: 'old', runId: '1', occurrenceId: 'a' }));
    model.onHookStarted(record({ sessionId: 'new', runId: '2', occurrenceId: 'b' }));
    expect(model.getChildren().map((s) => (s as SessionNode).sessionId)).toEqual(['new', 'old']);
  });

  it('reports targeted changes: the occurrence for a new run and for an update (its item sums up its runs), the agent for a new occurrence', () => {
    const model = new HookRunsModel();
    const changes: (HookRunsNode | undefined)[] = [];
    model.onChange((n) => changes.push(n));
    model.onHookStarted(record());
    // A new session: the root; then the whole new branch appears (the root again, throttled into one refresh).
    expect(changes.map((n) => n?.kind)).toEqual([undefined, 'session', undefined]);
    changes.length = 0;
    model.onHookStarted(record({ runId: 'r2' }));
    expect(changes).toEqual([model.findRun('r1')!.occurrence]);
    changes.length = 0;
    model.onHookFinished(record({ status: 'ok', durationMs: 3 }));
    expect(changes).toEqual([model.findRun('r1')!.occurrence]);
    changes.length = 0;
    model.onHookStarted(record({ runId: 'r3', occurrenceId: 'o2' }));
    expect(changes).toEqual([model.findRun('r1')!.occurrence.agent]);
  });

  it('under the filter, a run that finishes as a block refreshes from the root (its ancestors appear)', () => {
    const model = new HookRunsModel();
    model.filter = 'attention';
    model.onHookStarted(record());
    expect(dump(model)).toEqual([]);
    const changes: (HookRunsNode | undefined)[] = [];
    model.onChange((n) => changes.push(n));
    model.onHookFinished(record({ status: 'blocked', durationMs: 2, outcome: { decision: 'deny' } }));
    expect(changes).toEqual([undefined]);
    expect(dump(model)).toEqual(['session s1', '  agent main', '    occ o1', '      run r1 blocked']);
  });

  it('keeps at most N runs per session, dropping the oldest and empty occurrences', () => {
    const model = new HookRunsModel({ maxRunsPerSession: 3 });
    for (let i = 0; i < 5; i++) model.onHookStarted(record({ runId: `r${i}`, occurrenceId: `o${Math.floor(i / 2)}` }));
    expect(model.runCount('s1')).toBe(3);
    expect(model.findRun('r0')).toBeUndefined();
    expect(model.findRun('r1')).toBeUndefined();
    expect(dump(model)).toEqual([
      'session s1',
      '  agent main',
      '    occ o1',
      '      run r2 running',
      '      run r3 running',
      '    occ o2',
      '      run r4 running',
    ]);
    // Other sessions have their own budget.
    model.onHookStarted(record({ sessionId: 's2', runId: 'x', occurrenceId: 'ox' }));
    expect(model.runCount('s1')).toBe(3);
    expect(model.runCount('s2')).toBe(1);
  });

  it('a finish for an evicted run is ignored only if it was dropped; memory stays bounded under load', () => {
    const model = new HookRunsModel({ maxRunsPerSession: 100 });
    for (let i = 0; i < 10_000; i++) {
      model.onHookStarted(record({ runId: `r${i}`, occurrenceId: `o${i}` }));
      model.onHookFinished(record({ runId: `r${i}`, occurrenceId: `o${i}`, status: 'ok', durationMs: 1 }));
    }
    expect(model.runCount('s1')).toBe(100);
    const agent = model.findRun('r9999')!.occurrence.agent;
    expect(agent.children.length).toBe(100);
  });

  it('shrinks when the bound is lowered', () => {
    const model = new HookRunsModel({ maxRunsPerSession: 10 });
    for (let i = 0; i < 10; i++) model.onHookStarted(record({ runId: `r${i}` }));
    model.setMaxRunsPerSession(4);
    expect(model.runCount('s1')).toBe(4);
    expect(model.findRun('r9')).toBeDefined();
  });

  it('keeps at most maxSessions sessions', () => {
    const model = new HookRunsModel({ maxSessions: 2 });
    for (let i = 0; i < 4; i++) model.onHookStarted(record({ sessionId: `s${i}`, runId: `r${i}`, occurrenceId: `o${i}` }));
    expect(model.getChildren().map((s) => (s as SessionNode).sessionId)).toEqual(['s3', 's2']);
    expect(model.findRun('r0')).toBeUndefined();
  });

  it('filters to blocked / asked / failed runs and their ancestors; changes then refresh from the root', () => {
    const model = new HookRunsModel();
    model.onHookFinished(record({ runId: 'ok', occurrenceId: 'o1', status: 'ok', durationMs: 1 }));
    model.onHookFinished(record({ runId: 'deny', occurrenceId: 'o2', status: 'blocked', durationMs: 1, outcome: { decision: 'deny' } }));
    model.onHookFinished(
      record({
        runId: 'asked',
        occurrenceId: 'o3',
        agentId: 'sub',
        parentAgentId: 'main',
        agentType: 'Explore',
        status: 'asked',
        permission: { decision: 'deny', decidedBy: 'user' },
      }),
    );
    model.onHookFinished(record({ runId: 'fail', occurrenceId: 'o4', status: 'failed', error: 'exit 1' }));
    model.onHookFinished(record({ runId: 'slow', occurrenceId: 'o5', status: 'timed-out' }));
    const changes: (HookRunsNode | undefined)[] = [];
    model.onChange((n) => changes.push(n));
    model.filter = 'attention';
    expect(changes).toEqual([undefined]);
    expect(dump(model)).toEqual([
      'session s1',
      '  agent main',
      '    occ o2',
      '      run deny blocked',
      '    agent Explore',
      '      occ o3',
      '        run asked asked',
      '    occ o4',
      '      run fail failed',
      '    occ o5',
      '      run slow timed-out',
    ]);
    changes.length = 0;
    model.onHookStarted(record({ runId: 'new', occurrenceId: 'o6' }));
    expect(changes).toEqual([]); // a run the filter hides redraws nothing
    model.onHookFinished(record({ runId: 'new', occurrenceId: 'o6', status: 'failed', error: 'x' }));
    expect(new Set(changes)).toEqual(new Set([undefined]));
    model.filter = 'all';
    expect(dump(model)).toHaveLength(15); // session, 2 agents, 6 occurrences, 6 runs
  });

  it('clear() forgets everything and refreshes the root', () => {
    const model = new HookRunsModel();
    model.onHookStarted(record());
    const changes: (HookRunsNode | undefined)[] = [];
    model.onChange((n) => changes.push(n));
    model.clear();
    expect(model.getChildren()).toEqual([]);
    expect(model.findRun('r1')).toBeUndefined();
    expect(changes).toEqual([undefined]);
  });

  describe('built-in limit hooks', () => {
    const builtin = (overrides: Partial<Parameters<typeof record>[0]> = {}) =>
      record({
        runId: 'b1',
        occurrenceId: 'step1',
        event: 'BeforeStep',
        matchValue: undefined,
        hookId: 'builtin.maxSteps',
        hookLabel: 'built-in: max steps',
        actionKind: 'callable',
        source: { kind: 'code', label: 'built-in limits' },
        input: { hook_event_name: 'BeforeStep', step_index: 1 },
        ...overrides,
      });

    it('hides built-in hooks that decided nothing, and the occurrences, agents and sessions left empty', () => {
      const model = new HookRunsModel();
      model.onHookFinished(builtin({ status: 'ok', durationMs: 0 }));
      model.onHookFinished(builtin({ runId: 'b2', hookId: 'builtin.maxTokens', hookLabel: 'built-in: max tokens', status: 'ok', durationMs: 0 }));
      expect(dump(model)).toEqual([]);
      model.onHookFinished(record({ runId: 'user', occurrenceId: 'o9', status: 'ok', durationMs: 4 }));
      expect(dump(model)).toEqual(['session s1', '  agent main', '    occ o9', '      run user ok']);
      model.showBuiltin = true;
      expect(dump(model)).toEqual(['session s1', '  agent main', '    occ step1', '      run b1 ok', '      run b2 ok', '    occ o9', '      run user ok']);
    });

    it('shows a built-in hook that decides (the limit stopped the agent), refreshing from the root as its branch appears', () => {
      const model = new HookRunsModel();
      model.onHookStarted(record({ runId: 'user', occurrenceId: 'o0', sessionId: 's0' }));
      const changes: (HookRunsNode | undefined)[] = [];
      model.onChange((n) => changes.push(n));
      model.onHookStarted(builtin());
      expect(dump(model).filter((l) => l.includes('b1'))).toEqual([]);
      model.onHookFinished(builtin({ status: 'ok', durationMs: 0, outcome: { decision: 'stop', reason: 'Reached the maximum of 50 steps' } }));
      expect(dump(model)).toContain('      run b1 ok');
      expect(changes).toContain(undefined);
    });

    it('a hook that is not built-in but registered in code is always shown', () => {
      const model = new HookRunsModel();
      model.onHookFinished(builtin({ hookId: 'hook-3', source: { kind: 'code', label: 'my provider' }, status: 'ok' }));
      expect(dump(model)).toHaveLength(4);
    });
  });

  it('collapses the occurrences where no hook decided into their step; a decision keeps its occurrence in view', () => {
    const model = new HookRunsModel();
    const step = (n: number) =>
      record({
        runId: `b${n}`,
        occurrenceId: `step${n}`,
        event: 'BeforeStep',
        matchValue: undefined,
        hookId: 'builtin.maxSteps',
        hookLabel: 'built-in: max steps',
        actionKind: 'callable',
        source: { kind: 'code', label: 'built-in limits' },
        input: { hook_event_name: 'BeforeStep', step_index: n },
        status: 'ok',
      });
    model.onHookFinished(record({ runId: 'p0', occurrenceId: 'prompt', event: 'UserPromptSubmit', matchValue: undefined, status: 'ok' }));
    model.onHookFinished(step(1));
    model.onHookFinished(record({ runId: 'a', occurrenceId: 'pre1', status: 'ok', durationMs: 1 }));
    model.onHookFinished(record({ runId: 'b', occurrenceId: 'post1', event: 'PostToolUse', status: 'ok', durationMs: 1 }));
    model.onHookFinished(step(2));
    model.onHookFinished(record({ runId: 'c', occurrenceId: 'pre2', status: 'blocked', outcome: { decision: 'deny', reason: 'no' } }));
    model.onHookStarted(record({ runId: 'd', occurrenceId: 'post2', event: 'PostToolUse' }));
    const changes: (HookRunsNode | undefined)[] = [];
    model.onChange((n) => changes.push(n));
    model.groupQuiet = true;
    expect(changes).toEqual([undefined]);
    expect(dump(model)).toEqual([
      'session s1',
      '  agent main',
      '    step 0',
      '      occ prompt',
      '        run p0 ok',
      '    step 1',
      '      occ pre1',
      '        run a ok',
      '      occ post1',
      '        run b ok',
      '    occ pre2',
      '      run c blocked',
      '    occ post2',
      '      run d running',
    ]);
    // A running hook stays in view until it finishes without a decision.
    model.onHookFinished(record({ runId: 'd', occurrenceId: 'post2', event: 'PostToolUse', status: 'ok', durationMs: 2 }));
    expect(dump(model).slice(-5)).toEqual(['    occ pre2', '      run c blocked', '    step 2', '      occ post2', '        run d ok']);
    const stepNode = model.getChildren(model.getChildren(model.getChildren()[0])[0]).find((n) => n.kind === 'step');
    expect(stepNode && model.getParent(model.getChildren(stepNode)[0]!)).toBe(stepNode);
    model.groupQuiet = false;
    expect(dump(model).filter((l) => l.includes('step'))).toEqual([]);
  });
});
