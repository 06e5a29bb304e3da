import { describe, expect, it } from 'vitest';
import type { AgentRef } from '../../../src/hooks/hookRunTypes';
import type { SpanAttributes, SpanHandle, SpanSink } from '../../../src/telemetry/spanSink';
import { MAX_ATTRIBUTE_CHARS, TraceBuilder } from '../../../src/telemetry/traceBuilder';
import { record } from '../../support/hookRunFixtures';

interface Recorded {
  readonly name: string;
  readonly parent: Recorded | undefined;
  readonly attributes: Record<string, SpanAttributes[string]>;
  error?: string;
  ended: boolean;
}

/** A sink that keeps the spans it was asked for, as the SDK would build them. */
function recordingSink(): { sink: SpanSink; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const handles = new Map<SpanHandle, Recorded>();
  const sink: SpanSink = {
    startSpan(name, options) {
      const span: Recorded = { name, parent: options.parent ? handles.get(options.parent) : undefined, attributes: { ...options.attributes }, ended: false };
      spans.push(span);
      const handle: SpanHandle = {
        setAttributes: (a) => Object.assign(span.attributes, a),
        setError: (message) => (span.error = message),
        end: () => (span.ended = true),
      };
      handles.set(handle, span);
      return handle;
    },
  };
  return { sink, spans };
}

const MAIN: AgentRef = { agentId: 'main', parentAgentId: null, agentType: 'main' };
const SUB: AgentRef = { agentId: 'sub-1', parentAgentId: 'main', agentType: 'Explore' };
const byName = (spans: Recorded[], name: string): Recorded[] => spans.filter((s) => s.name === name);

describe('TraceBuilder', () => {
  it('puts a subagent under the Agent call that started it, and its tools and hooks under it', () => {
    const { sink, spans } = recordingSink();
    const b = new TraceBuilder(sink);
    b.sessionStarted('s1');
    b.agentEvent('s1', { type: 'runStarted', agent: MAIN });
    b.agentEvent('s1', { type: 'toolCall', agent: MAIN, toolUseId: 'call_task', toolName: 'Agent', input: {}, summary: 'Agent' });
    b.agentEvent('s1', { type: 'runStarted', agent: SUB, parentToolUseId: 'call_task' });
    b.agentEvent('s1', { type: 'toolCall', agent: SUB, toolUseId: 'call_read', toolName: 'Read', input: {}, summary: 'Read' });
    b.hookFinished(record({ ...SUB, runId: 'r-sub', status: 'ok', durationMs: 5, input: { tool_name: 'Read', tool_use_id: 'call_read' } }));
    b.hookFinished(
      record({ ...SUB, runId: 'r-stop', event: 'SubagentStop', status: 'failed', error: 'exit 1: API_KEY=hunter2 not accepted', durationMs: 3, input: {} }),
    );
    b.agentEvent('s1', { type: 'toolStatus', agent: SUB, toolUseId: 'call_read', status: 'failed', result: 'ENOENT /secret/path', isError: true });
    b.sessionEnded('s1', 'other');

    const [session] = byName(spans, 'session');
    const task = byName(spans, 'tool Agent')[0];
    const sub = byName(spans, 'agent Explore')[0];
    const read = byName(spans, 'tool Read')[0];
    expect(task?.parent).toBe(byName(spans, 'agent main')[0]);
    expect(sub?.parent).toBe(task);
    expect(sub?.attributes).toMatchObject({ 'hookwise.agent.parent_id': 'main', 'hookwise.agent.parent_tool_use_id': 'call_task' });
    expect(read?.parent).toBe(sub);
    expect(read?.error).toBe('tool failed');
    expect(JSON.stringify(spans.map((s) => [s.attributes, s.error]))).not.toMatch(/secret\/path|hunter2/);
    expect(byName(spans, 'hook PreToolUse')[0]?.parent).toBe(read);
    const stop = byName(spans, 'hook SubagentStop')[0];
    expect(stop?.parent).toBe(sub);
    expect(stop?.error).toBe('hook failed');
    expect(spans.every((s) => s.ended)).toBe(true);
    expect(session?.attributes['hookwise.session.end_reason']).toBe('other');
  });

  it('exports an ask hook once it is settled, with who decided; a URL loses its query; labels are bounded', () => {
    const { sink, spans } = recordingSink();
    const b = new TraceBuilder(sink);
    b.sessionStarted('s1');
    const asked = record({ runId: 'r-ask', status: 'asked', outcome: { decision: 'ask', reason: 'check' }, input: { tool_name: 'Bash', tool_use_id: 'c1' } });
    b.hookFinished(asked);
    expect(byName(spans, 'hook PreToolUse')).toHaveLength(0);
    b.hookAskResolved({ ...asked, permission: { decision: 'deny', decidedBy: 'user', reason: 'no' } });
    b.hookFinished(record({ runId: 'r-http', actionKind: 'http', hookLabel: 'https://user:pw@hooks.example/check?token=abc#x', status: 'ok', input: {} }));
    b.hookFinished(record({ runId: 'r-long', hookLabel: 'x'.repeat(1000), status: 'ok', input: {} }));
    b.hookFinished(record({ sessionId: 'other-session', runId: 'r-nobody', status: 'ok' }));

    const hooks = byName(spans, 'hook PreToolUse');
    expect(hooks).toHaveLength(3);
    expect(hooks[0]?.attributes).toMatchObject({
      'hookwise.decision': 'deny',
      'hookwise.permission.outcome': 'deny',
      'hookwise.permission.decided_by': 'user',
    });
    // The ask came before its tool card: the tool span is started for it.
    expect(hooks[0]?.parent?.name).toBe('tool Bash');
    expect(hooks[1]?.attributes['hookwise.hook.url']).toBe('https://hooks.example/check');
    expect(String(hooks[2]?.attributes['hookwise.hook.command'])).toHaveLength(MAX_ATTRIBUTE_CHARS);
  });

  it('names another agent’s hook by its format, file and JSON path, as Hook Runs do', () => {
    const { sink, spans } = recordingSink();
    const b = new TraceBuilder(sink);
    b.sessionStarted('s1');
    b.hookFinished(
      record({
        runId: 'r-cursor',
        status: 'blocked',
        outcome: { decision: 'deny', reason: 'git is not allowed' },
        durationMs: 4,
        source: {
          kind: 'file',
          scope: 'project',
          file: '/ws/.cursor/hooks.json',
          displayFile: '.cursor/hooks.json',
          jsonPath: 'hooks.beforeShellExecution[0]',
          format: 'Cursor',
        },
        input: { tool_name: 'Bash', tool_use_id: 'c1' },
      }),
    );
    expect(byName(spans, 'hook PreToolUse')[0]?.attributes['hookwise.hook.source']).toBe('Cursor .cursor/hooks.json › hooks.beforeShellExecution[0]');
  });
});
