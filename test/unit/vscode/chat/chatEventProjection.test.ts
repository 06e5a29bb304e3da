import { describe, expect, it } from 'vitest';
import type { ModelHookMarker } from '../../../../src/agent/agentEvents';
import { streamLine } from '../../../../src/cli/cliOutput';
import type { AgentRef } from '../../../../src/hooks/hookRunTypes';
import { ChatEventLog } from '../../../../src/vscode/chat/chatEventLog';
import { MAX_CHAT_TEXT, projectAgentEvent } from '../../../../src/vscode/chat/chatEventProjection';
import { verdictText } from '../../../../src/presentation/agentEventText';
import { chatEventSchema } from '../../../../src/shared/webviewProtocol';
import { record } from '../../../support/hookRunFixtures';

const main: AgentRef = { agentId: 'main', parentAgentId: null, agentType: 'main' };
const sub: AgentRef = { agentId: 'sub1', parentAgentId: 'main', agentType: 'Explore' };
const source = {
  kind: 'file',
  scope: 'project',
  file: '/ws/.claude/settings.json',
  displayFile: '.claude/settings.json',
  jsonPath: 'hooks.PreToolUse[0].hooks[0]',
} as const;

describe('verdictText', () => {
  it('names the hook and its source for hook decisions', () => {
    expect(
      verdictText({ event: 'PreToolUse', decision: 'deny', reason: 'no rm -rf', decidedBy: { kind: 'hook', hookId: 'h', hookLabel: './guard.sh', source } }),
    ).toBe('Blocked by PreToolUse hook `.claude/settings.json › hooks.PreToolUse[0].hooks[0]`: no rm -rf');
    expect(
      verdictText({
        event: 'PreToolUse',
        decision: 'allow',
        decidedBy: { kind: 'hook', hookId: 'h', hookLabel: 'x', source: { kind: 'code', label: 'built-in: max steps' } },
      }),
    ).toBe('Allowed by PreToolUse hook `built-in: max steps`');
  });

  it('names people, fallbacks, rules and modes', () => {
    expect(verdictText({ event: 'PreToolUse', decision: 'deny', decidedBy: { kind: 'user' } })).toBe('Blocked by you');
    expect(verdictText({ event: 'PreToolUse', decision: 'deny', decidedBy: { kind: 'fallback' } })).toBe('Blocked by the ask fallback (nobody could be asked)');
    expect(verdictText({ event: 'PreToolUse', decision: 'allow', decidedBy: { kind: 'rule', detail: 'Bash(npm test:*)' } })).toBe(
      'Allowed by permission rule Bash(npm test:*)',
    );
    expect(verdictText({ event: 'PreToolUse', decision: 'deny', reason: ' read-only ', decidedBy: { kind: 'mode', detail: 'plan' } })).toBe(
      'Blocked by permission mode plan: read-only',
    );
    expect(verdictText({ event: 'PostToolUse', decision: 'deny', reason: 'bad output' })).toBe('Blocked by PostToolUse hooks: bad output');
  });
});

describe('projectAgentEvent', () => {
  it('projects every event type to a schema-valid chat event', () => {
    const events = [
      projectAgentEvent({ type: 'runStarted', agent: sub, description: 'find tests', parentToolUseId: 'call_1' }),
      projectAgentEvent({ type: 'text', agent: main, delta: 'Hi' }),
      projectAgentEvent({ type: 'assistantMessage', agent: main, text: 'Hi', step: 1 }),
      projectAgentEvent({ type: 'toolCall', agent: main, toolUseId: 't1', toolName: 'Bash', input: { command: 'npm test' }, summary: 'npm test' }),
      projectAgentEvent({
        type: 'toolStatus',
        agent: main,
        toolUseId: 't1',
        status: 'denied',
        isError: true,
        result: 'no',
        verdict: { event: 'PreToolUse', decision: 'deny', reason: 'nope', decidedBy: { kind: 'hook', hookId: 'h', hookLabel: 'x', source } },
      }),
      projectAgentEvent({ type: 'systemMessage', agent: main, text: 'careful', source: 'PreToolUse' }),
      projectAgentEvent({ type: 'usage', agent: main, inputTokens: 1, outputTokens: 2 }),
      projectAgentEvent({
        type: 'runEnded',
        agent: main,
        result: { status: 'failed', finalText: '', reason: 'boom', steps: 2, inputTokens: 0, outputTokens: 0 },
      }),
    ];
    for (const e of events) expect(chatEventSchema.safeParse(e).success, JSON.stringify(e)).toBe(true);
    expect(events[0]).toEqual({
      type: 'runStarted',
      agent: { agentId: 'sub1', parentAgentId: 'main', agentType: 'Explore' },
      description: 'find tests',
      parentToolUseId: 'call_1',
    });
    expect(events[3]).toMatchObject({ input: '{\n  "command": "npm test"\n}' });
    expect(events[4]).toMatchObject({
      verdict: 'Blocked by PreToolUse hook `.claude/settings.json › hooks.PreToolUse[0].hooks[0]`: nope',
      verdictBlocks: true,
    });
  });

  it("marks a model-level hook's change in the words the CLI prints too", () => {
    const mark = (marker: ModelHookMarker): unknown => projectAgentEvent({ type: 'modelHookMarker', agent: main, marker });
    const answered = mark({ kind: 'answered', hookLabel: 'cost-guard.cjs' });
    expect(chatEventSchema.safeParse(answered).success).toBe(true);
    expect(answered).toEqual({
      type: 'modelHookMarker',
      agentId: 'main',
      kind: 'answered',
      hook: 'cost-guard.cjs',
      text: 'Answered by hook "cost-guard.cjs" (the model was not called)',
    });
    expect(mark({ kind: 'redacted', hookLabel: 'redact.cjs' })).toMatchObject({ text: 'Reply redacted by hook "redact.cjs"' });
    expect(mark({ kind: 'requestChanged', hookLabel: 'trim.cjs', detail: 'messages 42 → 12' })).toMatchObject({
      text: 'Request changed by hook "trim.cjs": messages 42 → 12',
    });
    expect(streamLine({ type: 'modelHookMarker', agent: main, marker: { kind: 'requestChanged', hookLabel: 'trim.cjs', detail: 'messages 42 → 12' } })).toEqual(
      {
        type: 'model_hook',
        agent_id: 'main',
        kind: 'request_changed',
        hook: 'trim.cjs',
        detail: 'messages 42 → 12',
        message: 'Request changed by hook "trim.cjs": messages 42 → 12',
      },
    );
  });

  it('skips hook runs (the tree shows them) and keeps raw string inputs', () => {
    // Hook runs are no longer agent events (the runner's observers report them); one that slipped through still never reaches the chat.
    // @ts-expect-error 'hookRun' is not an AgentEvent type
    expect(projectAgentEvent({ type: 'hookRun', record: record(), phase: 'started' })).toBeUndefined();
    expect(projectAgentEvent({ type: 'toolCall', agent: main, toolUseId: 't', toolName: 'Bash', input: '{not json', summary: 'Bash' })).toMatchObject({
      input: '{not json',
    });
  });

  it('cuts huge results', () => {
    const e = projectAgentEvent({ type: 'toolStatus', agent: main, toolUseId: 't', status: 'done', result: 'x'.repeat(MAX_CHAT_TEXT + 500) });
    expect(e?.type === 'toolStatus' && e.result?.length).toBeLessThan(MAX_CHAT_TEXT + 100);
    expect(e?.type === 'toolStatus' && e.result).toMatch(/500 more characters not shown/);
  });
});

describe('reasoning in the chat', () => {
  it('is projected per agent and coalesced in the replay log apart from the answer text', () => {
    const log = new ChatEventLog();
    for (const delta of ['Two plus ', 'two…']) log.add(projectAgentEvent({ type: 'reasoning', agent: main, delta })!);
    log.add(projectAgentEvent({ type: 'text', agent: main, delta: '4' })!);
    expect(log.snapshot()).toEqual([
      { type: 'reasoning', agentId: 'main', delta: 'Two plus two…' },
      { type: 'text', agentId: 'main', delta: '4' },
    ]);
    expect(log.snapshot().every((e) => chatEventSchema.safeParse(e).success)).toBe(true);
  });
});
