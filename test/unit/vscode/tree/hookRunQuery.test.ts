import { describe, expect, it } from 'vitest';
import { parseHookRunQuery, runMatchesQuery } from '../../../../src/vscode/tree/hookRunQuery';
import { HookRunsModel } from '../../../../src/vscode/tree/hookRunsModel';
import { record } from '../../../support/hookRunFixtures';

const denyRm = record({
  runId: 'a',
  occurrenceId: 'o1',
  status: 'blocked',
  outcome: { decision: 'deny', reason: 'no rm' },
  input: { tool_name: 'Bash', tool_input: { command: 'rm -rf build' } },
});
const allowLs = record({
  runId: 'b',
  occurrenceId: 'o2',
  hookLabel: './audit.sh',
  status: 'ok',
  outcome: { decision: 'allow' },
  input: { tool_name: 'Bash', tool_input: { command: 'ls' } },
});
const stopRun = record({
  runId: 'c',
  occurrenceId: 'o3',
  event: 'Stop',
  matchValue: undefined,
  agentType: 'Explore',
  agentId: 'sub1',
  parentAgentId: 'main',
  status: 'ok',
  outcome: {},
  input: {},
});

const matching = (text: string) =>
  [denyRm, allowLs, stopRun].filter((r) => runMatchesQuery(r, parseHookRunQuery(text) ?? { fields: [], words: [] })).map((r) => r.runId);

describe('hook run search', () => {
  it('matches free text in the input and reason, and field terms on their field only', () => {
    expect(matching('rm')).toEqual(['a']);
    expect(matching('decision:deny')).toEqual(['a']);
    expect(matching('event:stop')).toEqual(['c']);
    expect(matching('agent:explore')).toEqual(['c']);
    expect(matching('hook:audit bash')).toEqual(['b']);
    expect(matching('event:pretooluse decision:allow rm')).toEqual([]);
    expect(parseHookRunQuery('   ')).toBeUndefined();
  });

  it('hides the events whose runs do not match in the Hook Runs model, and shows all again when cleared', () => {
    const model = new HookRunsModel();
    model.showBuiltin = true;
    for (const r of [denyRm, allowLs]) model.onHookFinished(r);
    const occurrences = () => model.getChildren(model.getChildren(model.getChildren()[0])[0]).map((n) => (n.kind === 'occurrence' ? n.occurrenceId : n.kind));
    expect(occurrences()).toEqual(['o1', 'o2']);
    model.query = 'decision:deny';
    expect(occurrences()).toEqual(['o1']);
    model.query = '';
    expect(occurrences()).toEqual(['o1', 'o2']);
  });
});
