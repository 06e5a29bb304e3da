import type { AgentEvent } from '../agent/agentEvents';
import type { HookRunRecord } from '../hooks/hookRunTypes';
import { describeSource } from '../configFiles/hookSource';
import type { SpanAttributes, SpanHandle, SpanSink } from './spanSink';

/** Longest string attribute value (commands, URLs, reasons): a backend is not a log store. */
export const MAX_ATTRIBUTE_CHARS = 256;

/** `text` cut to {@link MAX_ATTRIBUTE_CHARS}, with `…` when cut. */
export function bounded(text: string): string {
  return text.length > MAX_ATTRIBUTE_CHARS ? `${text.slice(0, MAX_ATTRIBUTE_CHARS - 1)}…` : text;
}

/** An http hook's URL without credentials, query or fragment (a token often rides there). */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid url)';
  }
}

interface SessionSpans {
  readonly span: SpanHandle;
  readonly agents: Map<string, SpanHandle>;
  readonly tools: Map<string, SpanHandle>;
  /** Hook runs that said `ask`: exported once the ask is settled (or the session ends). */
  readonly asked: Map<string, HookRunRecord>;
}

/**
 * Turns one session's lifecycle, its agent events and its hook runs into spans: session (root)
 * → agent (main run, or a subagent under the Agent (Task) call that started it) → tool call → hook run
 * (under its tool call, else its agent, else the session). Only identifiers, names, decisions,
 * statuses and bounded labels are exported — never tool input/output or prompts. Plain data in,
 * spans out: the CLI and the extension feed it from the same SessionManager stream.
 */
export class TraceBuilder {
  private readonly sessions = new Map<string, SessionSpans>();

  constructor(private readonly sink: SpanSink) {}

  /** A session was created (new or resumed). */
  sessionStarted(sessionId: string): void {
    if (this.sessions.has(sessionId)) return;
    const span = this.sink.startSpan('session', { attributes: { 'hookwise.session.id': sessionId } });
    this.sessions.set(sessionId, { span, agents: new Map(), tools: new Map(), asked: new Map() });
  }

  /** The session ended: whatever is still open ends with it. */
  sessionEnded(sessionId: string, reason?: string): void {
    const s = this.sessions.get(sessionId);
    if (!s) return;
    this.sessions.delete(sessionId);
    for (const record of s.asked.values()) this.hookSpan(s, record);
    for (const tool of s.tools.values()) tool.end();
    for (const agent of s.agents.values()) agent.end();
    if (reason !== undefined) s.span.setAttributes({ 'hookwise.session.end_reason': reason });
    s.span.end();
  }

  /** Ends every open session (dispose / exit). */
  endAll(): void {
    for (const id of [...this.sessions.keys()]) this.sessionEnded(id);
  }

  /** One agent event of `sessionId`. */
  agentEvent(sessionId: string, event: AgentEvent): void {
    const s = this.sessions.get(sessionId);
    if (!s) return;
    const agentAttributes = { 'hookwise.session.id': sessionId, 'hookwise.agent.id': event.agent.agentId, 'hookwise.agent.type': event.agent.agentType };
    switch (event.type) {
      case 'runStarted': {
        const parent = (event.parentToolUseId !== undefined ? s.tools.get(event.parentToolUseId) : undefined) ?? s.span;
        s.agents.get(event.agent.agentId)?.end();
        const parentAgent = event.agent.parentAgentId !== null ? { 'hookwise.agent.parent_id': event.agent.parentAgentId } : {};
        const parentTool = event.parentToolUseId !== undefined ? { 'hookwise.agent.parent_tool_use_id': event.parentToolUseId } : {};
        s.agents.set(
          event.agent.agentId,
          this.sink.startSpan(`agent ${event.agent.agentType}`, { parent, attributes: { ...agentAttributes, ...parentAgent, ...parentTool } }),
        );
        return;
      }
      case 'runEnded': {
        const span = s.agents.get(event.agent.agentId);
        if (!span) return;
        s.agents.delete(event.agent.agentId);
        const r = event.result;
        span.setAttributes({
          'hookwise.agent.status': r.status,
          'hookwise.agent.steps': r.steps,
          'hookwise.agent.input_tokens': r.inputTokens,
          'hookwise.agent.output_tokens': r.outputTokens,
        });
        if (r.status === 'failed') span.setError(bounded(r.reason ?? 'agent failed'));
        span.end();
        return;
      }
      case 'toolCall':
        if (!s.tools.has(event.toolUseId)) s.tools.set(event.toolUseId, this.toolSpan(s, agentAttributes, event.toolName, event.toolUseId));
        return;
      case 'toolStatus': {
        const span = s.tools.get(event.toolUseId);
        if (!span) return;
        if (event.status === 'running') {
          span.setAttributes({ 'hookwise.permission.outcome': 'allow' });
          return;
        }
        if (event.status !== 'done' && event.status !== 'denied' && event.status !== 'failed' && event.status !== 'cancelled') return;
        s.tools.delete(event.toolUseId);
        const verdict = event.verdict;
        span.setAttributes({
          'hookwise.tool.status': event.status,
          ...(event.status === 'denied' ? { 'hookwise.permission.outcome': 'deny' } : {}),
          ...(verdict ? { 'hookwise.decision': verdict.decision, 'hookwise.decision.event': verdict.event } : {}),
          ...(verdict?.reason !== undefined ? { 'hookwise.reason': bounded(verdict.reason) } : {}),
          ...(verdict?.decidedBy ? { 'hookwise.decided_by': verdict.decidedBy.kind } : {}),
          ...(verdict?.decidedBy?.kind === 'hook' ? { 'hookwise.decided_by.hook': bounded(describeSource(verdict.decidedBy.source)) } : {}),
        });
        // The result text may hold secrets: a failure says only that it failed.
        if (event.status === 'failed') span.setError('tool failed');
        span.end();
        return;
      }
      default:
        return;
    }
  }

  /** A hook run finished (`asked` ones wait for {@link hookAskResolved}). */
  hookFinished(record: HookRunRecord): void {
    const s = this.sessions.get(record.sessionId);
    if (!s) return;
    if (record.status === 'asked' && record.permission === undefined) s.asked.set(record.runId, record);
    else this.hookSpan(s, record);
  }

  /** A hook's `ask` was settled: the record carries the permission outcome. */
  hookAskResolved(record: HookRunRecord): void {
    const s = this.sessions.get(record.sessionId);
    if (!s) return;
    s.asked.delete(record.runId);
    this.hookSpan(s, record);
  }

  private toolSpan(s: SessionSpans, agentAttributes: SpanAttributes, toolName: string, toolUseId: string, startTime?: number): SpanHandle {
    const parent = s.agents.get(String(agentAttributes['hookwise.agent.id'])) ?? s.span;
    return this.sink.startSpan(`tool ${toolName}`, {
      parent,
      ...(startTime !== undefined ? { startTime } : {}),
      attributes: { ...agentAttributes, 'hookwise.tool.name': toolName, 'hookwise.tool_use_id': toolUseId },
    });
  }

  private hookSpan(s: SessionSpans, r: HookRunRecord): void {
    const toolUseId = typeof r.input['tool_use_id'] === 'string' ? r.input['tool_use_id'] : undefined;
    const toolName = typeof r.input['tool_name'] === 'string' ? r.input['tool_name'] : undefined;
    const agentAttributes = { 'hookwise.session.id': r.sessionId, 'hookwise.agent.id': r.agentId, 'hookwise.agent.type': r.agentType };
    let parent = toolUseId !== undefined ? s.tools.get(toolUseId) : undefined;
    if (!parent && toolUseId !== undefined && toolName !== undefined && r.event === 'PreToolUse') {
      // A PreToolUse run reported before its tool's card: the tool span starts with the hook.
      parent = this.toolSpan(s, agentAttributes, toolName, toolUseId, r.startedAt);
      s.tools.set(toolUseId, parent);
    }
    parent ??= s.agents.get(r.agentId) ?? s.span;
    const label =
      r.actionKind === 'http'
        ? { 'hookwise.hook.url': bounded(safeUrl(r.hookLabel)) }
        : { [`hookwise.hook.${r.actionKind === 'command' ? 'command' : 'label'}`]: bounded(r.hookLabel) };
    const decision = r.permission?.decision ?? r.outcome?.decision;
    const reason = r.permission?.reason ?? r.outcome?.reason;
    const span = this.sink.startSpan(`hook ${r.event}`, {
      parent,
      startTime: r.startedAt,
      attributes: {
        ...agentAttributes,
        'hookwise.hook.event': r.event,
        'hookwise.hook.id': bounded(r.hookId),
        'hookwise.hook.source': bounded(describeSource(r.source)),
        'hookwise.hook.handler': r.actionKind,
        ...label,
        'hookwise.hook.status': r.status,
        ...(r.matchValue !== undefined ? { 'hookwise.hook.match_value': bounded(r.matchValue) } : {}),
        ...(toolName !== undefined ? { 'hookwise.tool.name': toolName } : {}),
        ...(toolUseId !== undefined ? { 'hookwise.tool_use_id': toolUseId } : {}),
        ...(decision !== undefined ? { 'hookwise.decision': decision } : {}),
        ...(reason !== undefined ? { 'hookwise.reason': bounded(reason) } : {}),
        ...(r.raw?.exitCode !== undefined && r.raw.exitCode !== null ? { 'hookwise.hook.exit_code': r.raw.exitCode } : {}),
        ...(r.durationMs !== undefined ? { 'hookwise.hook.duration_ms': r.durationMs } : {}),
        ...(r.failureReason !== undefined ? { 'hookwise.hook.failure_reason': r.failureReason } : {}),
        ...(r.permission ? { 'hookwise.permission.outcome': r.permission.decision, 'hookwise.permission.decided_by': r.permission.decidedBy } : {}),
      },
    });
    // Not `r.error`: a failed command's message carries its stderr, which may hold secrets.
    if (r.status === 'failed' || r.status === 'timed-out')
      span.setError(r.failureReason !== undefined ? `hook ${r.status}: ${r.failureReason}` : `hook ${r.status}`);
    span.end(r.startedAt + (r.durationMs ?? 0));
  }
}
