import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent, HookVerdict } from '../../../src/agent/agentEvents';
import { ConfigPermissionRules } from '../../../src/permissions/configPermissionRules';
import { parsePermissionRule } from '../../../src/permissions/permissionRules';
import type { HookSource } from '../../../src/configFiles/hookSource';
import { allow } from '../../../src/hooks/hookOutcome';
import { verdictText } from '../../../src/presentation/agentEventText';
import type { AgentHarness } from './agentHarness';
import { bash, makeAgentHarness, RecordingProvider } from './agentHarness';

// "Who decided" is on every card of a call that ran: the card's line comes from the verdict of
// its running/done status, here read back in the words the chat and the CLI show.

let h: AgentHarness;
beforeEach(async () => {
  h = await makeAgentHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const settings = (jsonPath: string): HookSource => ({
  kind: 'file',
  scope: 'project',
  file: '/p/.claude/settings.json',
  displayFile: '.claude/settings.json',
  jsonPath,
});

function rules(behavior: 'allow' | 'deny', text: string, jsonPath: string): ConfigPermissionRules {
  const parsed = parsePermissionRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return new ConfigPermissionRules([{ behavior, rule: parsed.rule, source: settings(jsonPath) }], { projectRoot: h.dir });
}

/** The verdict lines the card of the run's only call showed, in order (running, then done). */
function verdictLines(events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'toolStatus' && e.verdict ? [verdictText(e.verdict)] : []));
}

describe('who decided, on the card of a call that ran', () => {
  it('an allow rule: the rule and the file it was written in', async () => {
    const { events } = await h.run([bash('touch made'), { text: 'ok' }], { rules: rules('allow', 'Bash(touch:*)', 'permissions.allow[0]') });
    expect(existsSync(path.join(h.dir, 'made'))).toBe(true);
    expect(verdictLines(events)).toEqual([
      'Allowed by permission rule `Bash(touch:*)` · `.claude/settings.json › permissions.allow[0]`',
      'Allowed by permission rule `Bash(touch:*)` · `.claude/settings.json › permissions.allow[0]`',
    ]);
  });

  it('a session grant: the rule and where it was granted', async () => {
    const session = new ConfigPermissionRules([], { projectRoot: h.dir });
    session.grant('Bash(touch:*)');
    const { events } = await h.run([bash('touch made'), { text: 'ok' }], { sessionRules: session });
    expect(existsSync(path.join(h.dir, 'made'))).toBe(true);
    expect(verdictLines(events).at(-1)).toBe('Allowed by permission rule `Bash(touch:*)` · `allowed for this session`');
  });

  it('the mode: bypassPermissions', async () => {
    const { events } = await h.run([bash('touch made'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(verdictLines(events).at(-1)).toBe('Allowed by permission mode bypassPermissions');
  });

  it('a read-only tool: by default, saying why', async () => {
    const { events } = await h.run([{ toolCalls: [{ name: 'Glob', input: { pattern: '*.txt' } }] }, { text: 'ok' }]);
    expect(verdictLines(events).at(-1)).toBe('Allowed by default: Glob is read-only');
  });

  it('the person who approved it', async () => {
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    const { events } = await h.run([bash('touch made'), { text: 'ok' }], { provider });
    expect(provider.requests).toHaveLength(1);
    expect(verdictLines(events).at(-1)).toBe('Allowed by you');
  });

  it('a PreToolUse hook that allowed it, by its source (not the rule behind it)', async () => {
    h.hooks.onPreToolUse(() => allow());
    const { events } = await h.run([bash('touch made'), { text: 'ok' }], { rules: rules('allow', 'Bash(touch:*)', 'permissions.allow[0]') });
    expect(verdictLines(events).at(-1)).toBe('Allowed by PreToolUse hook `test`');
  });
});

describe('verdictText for policy decisions', () => {
  const verdict = (v: Partial<HookVerdict>): HookVerdict => ({ event: 'permission', decision: 'allow', ...v });

  it('a deny rule names the rule and its file once, not again in the reason', () => {
    expect(
      verdictText(
        verdict({
          decision: 'deny',
          reason: 'denied by permission rule Bash(rm:*) (.claude/settings.json › permissions.deny[0])',
          decidedBy: { kind: 'rule', detail: 'Bash(rm:*)', file: '.claude/settings.json › permissions.deny[0]' },
        }),
      ),
    ).toBe('Blocked by permission rule `Bash(rm:*)` · `.claude/settings.json › permissions.deny[0]`');
  });

  it('a rule holding a backtick stays one code span', () => {
    expect(verdictText(verdict({ decidedBy: { kind: 'rule', detail: 'Bash(echo `x`)', file: 'user settings › permissions.allow[0]' } }))).toBe(
      'Allowed by permission rule ``Bash(echo `x`)`` · `user settings › permissions.allow[0]`',
    );
  });

  it('by default, with the reason from the detail or the verdict', () => {
    expect(verdictText(verdict({ decidedBy: { kind: 'default', detail: 'Read is read-only' } }))).toBe('Allowed by default: Read is read-only');
    expect(verdictText(verdict({ reason: 'no approval needed', decidedBy: { kind: 'default' } }))).toBe('Allowed by default: no approval needed');
  });
});
