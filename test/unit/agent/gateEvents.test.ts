import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvents';
import { ConfigPermissionRules } from '../../../src/permissions/configPermissionRules';
import { askPolicy } from '../../../src/agent/permissionGate';
import { parsePermissionRule } from '../../../src/permissions/permissionRules';
import { Session } from '../../../src/agent/session';
import { createBuiltinTools } from '../../../src/agent/tools/builtinTools';
import { CommandHookAction } from '../../../src/hooks/actions/commandHookAction';
import type { HookEvent } from '../../../src/hooks/hookEvent';
import { ask } from '../../../src/hooks/hookOutcome';
import type { HookSource } from '../../../src/configFiles/hookSource';
import { compileClaudeMatcher } from '../../../src/hooks/matchers/claudeMatcher';
import type { AgentHarness } from './agentHarness';
import { bash, makeAgentHarness, RecordingModel, RecordingProvider } from './agentHarness';

// Every event that can ask goes through the one gate: PermissionRequest hooks, then a
// permission_prompt Notification, then the provider, then the fallback. Real command hooks.

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

/** A command hook that prints `json` (a shell-quoted literal). */
function printing(event: HookEvent, json: unknown, matcher?: string): void {
  const text = JSON.stringify(json).replace(/'/g, `'\\''`);
  h.registry.register({
    event,
    action: new CommandHookAction(`printf '%s' '${text}'`),
    source: settings(`hooks.${event}[0].hooks[0]`),
    ...(matcher ? { matcher: compileClaudeMatcher(matcher) } : {}),
  });
}

/** A Notification command hook appending each input it gets to notes.jsonl; returns a reader. */
function recordNotifications(): () => { notification_type: string; message: string }[] {
  const file = path.join(h.dir, 'notes.jsonl');
  h.registry.register({
    event: 'Notification',
    action: new CommandHookAction(`cat >> '${file}'; echo >> '${file}'`),
    source: settings('hooks.Notification[0].hooks[0]'),
  });
  return () =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { notification_type: string; message: string })
      : [];
}

const preToolUseAsk = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'deploys need a look' } };
const permissionDeny = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no deploys from hooks' } } };
const permissionAllow = { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } };

function verdictOf(events: readonly AgentEvent[]): unknown {
  const last = events.filter((e) => e.type === 'toolStatus' && (e.status === 'denied' || e.status === 'running')).at(-1);
  return last?.type === 'toolStatus' ? last.verdict : undefined;
}

describe('the permission gate, event by event', () => {
  it('PreToolUse hook ask → a PermissionRequest hook denies: not run, and the verdict names that hook and its file (not "the user")', async () => {
    printing('PreToolUse', preToolUseAsk, 'Bash');
    printing('PermissionRequest', permissionDeny, 'Bash');
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    const { events, model } = await h.run([bash('touch deployed'), { text: 'ok' }], { provider, mode: 'bypassPermissions' });
    expect(existsSync(path.join(h.dir, 'deployed'))).toBe(false);
    expect(provider.requests).toHaveLength(0);
    expect(verdictOf(events)).toMatchObject({
      event: 'PreToolUse',
      decision: 'deny',
      reason: 'no deploys from hooks',
      decidedBy: { kind: 'hook', source: { displayFile: '.claude/settings.json', jsonPath: 'hooks.PermissionRequest[0].hooks[0]' } },
    });
    expect(model.toolResultsOf(1)[0]?.isError).toBe(true);
  });

  it('PreToolUse hook ask with nobody to ask: the Notification fires, then the fallback denies', async () => {
    printing('PreToolUse', preToolUseAsk, 'Bash');
    const notes = recordNotifications();
    const { events } = await h.run([bash('touch deployed'), { text: 'ok' }], { mode: 'bypassPermissions' });
    expect(existsSync(path.join(h.dir, 'deployed'))).toBe(false);
    expect(notes().map((n) => n.notification_type)).toEqual(['permission_prompt']);
    expect(verdictOf(events)).toMatchObject({ decision: 'deny', decidedBy: { kind: 'fallback' } });
  });

  it('a rule ask (default mode) allowed by a PermissionRequest hook runs, and the verdict names the hook (not "rule")', async () => {
    printing('PermissionRequest', permissionAllow, 'Bash');
    const provider = new RecordingProvider(() => ({ decision: 'deny' }));
    const { events } = await h.run([bash('touch made'), { text: 'ok' }], { provider });
    expect(existsSync(path.join(h.dir, 'made'))).toBe(true);
    expect(provider.requests).toHaveLength(0);
    expect(verdictOf(events)).toMatchObject({
      event: 'permission',
      decision: 'allow',
      decidedBy: { kind: 'hook', source: { jsonPath: 'hooks.PermissionRequest[0].hooks[0]' } },
    });
  });

  it("a deny rule beats a hook's ask: nobody is asked, and the verdict names the rule and the file it came from", async () => {
    printing('PreToolUse', preToolUseAsk, 'Bash');
    const parsed = parsePermissionRule('Bash(touch:*)');
    if (!parsed.ok) throw new Error(parsed.message);
    const rules = new ConfigPermissionRules([{ behavior: 'deny', rule: parsed.rule, source: settings('permissions.deny[0]') }], { projectRoot: h.dir });
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    const { events } = await h.run([bash('touch deployed'), { text: 'ok' }], { provider, rules });
    expect(existsSync(path.join(h.dir, 'deployed'))).toBe(false);
    expect(provider.requests).toHaveLength(0);
    expect(verdictOf(events)).toMatchObject({
      decision: 'deny',
      decidedBy: { kind: 'rule', detail: 'Bash(touch:*)', file: expect.stringContaining('.claude/settings.json') },
    });
  });

  it("a Stop hook ask reaches the provider (after PermissionRequest and Notification); a person's deny makes the agent go on", async () => {
    let asked = 0;
    h.hooks.onStop(() => (asked++ === 0 ? ask('are you really done?') : undefined));
    const notes = recordNotifications();
    const provider = new RecordingProvider(() => ({ decision: 'deny', reason: 'not yet' }));
    const { model, result } = await h.run([{ text: 'done' }, { text: 'now done' }], { provider });
    expect(provider.requests).toHaveLength(1);
    expect(provider.requests[0]).toMatchObject({ event: 'Stop', kind: 'hook', reason: 'are you really done?' });
    expect(notes().map((n) => n.message)).toEqual(['Hookwise needs your permission to use Stop']);
    expect(model.requests).toHaveLength(2);
    expect(result.status).toBe('completed');
  });
  it.each(['PostToolUse', 'BeforeStep', 'AfterInference'] as const)('a %s hook ask reaches the provider through the gate, naming the event', async (event) => {
    h.hooks.on(event, () => ask(`${event} wants a look`));
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    await h.run([bash('true'), { text: 'ok' }], { provider, mode: 'bypassPermissions' });
    expect(provider.requests.length).toBeGreaterThan(0);
    expect(provider.requests[0]).toMatchObject({ event, kind: 'hook', reason: `${event} wants a look` });
  });
});

describe("the permission gate for the session's own events", () => {
  function session(provider?: RecordingProvider): { session: Session; model: RecordingModel; events: AgentEvent[] } {
    const model = new RecordingModel([{ text: 'answered' }]);
    const events: AgentEvent[] = [];
    const s = new Session({
      cwd: h.dir,
      projectDir: h.dir,
      transcriptDir: path.join(h.dir, 'transcripts'),
      model,
      hooks: h.runner,
      tools: createBuiltinTools(),
      permissionMode: 'default',
      asks: askPolicy(provider, 'deny'),
      systemPrompt: 'test',
      emit: (e) => events.push(e),
    });
    return { session: s, model, events };
  }

  it("a UserPromptSubmit ask goes through PermissionRequest hooks (offered under the event's name): their deny blocks the prompt, nobody is asked", async () => {
    h.hooks.onUserPromptSubmit(() => ask('this prompt mentions prod'));
    printing('PermissionRequest', permissionDeny, 'UserPromptSubmit');
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    const { session: s, model } = session(provider);
    const result = await s.submit('deploy to prod', new AbortController().signal);
    await s.end('other');
    expect(result).toMatchObject({ status: 'blocked' });
    expect(provider.requests).toHaveLength(0);
    expect(model.requests).toHaveLength(0);
  });

  it('a UserPromptSubmit ask fires the permission_prompt Notification, then asks the provider; an allow lets the prompt through', async () => {
    h.hooks.onUserPromptSubmit(() => ask('this prompt mentions prod'));
    const notes = recordNotifications();
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    const { session: s, model } = session(provider);
    const result = await s.submit('deploy to prod', new AbortController().signal);
    await s.end('other');
    expect(provider.requests).toMatchObject([{ event: 'UserPromptSubmit', kind: 'hook', reason: 'this prompt mentions prod' }]);
    expect(notes().map((n) => n.notification_type)).toEqual(['permission_prompt']);
    expect(result).toMatchObject({ status: 'completed' });
    expect(model.requests).toHaveLength(1);
  });

  it.each(['SessionStart', 'SessionEnd'] as const)('a %s hook ask reaches the provider through the gate', async (event) => {
    h.hooks.on(event, () => ask(`${event} wants a look`));
    const provider = new RecordingProvider(() => ({ decision: 'allow' }));
    const { session: s } = session(provider);
    await s.start('startup', new AbortController().signal);
    await s.end('other');
    expect(provider.requests).toMatchObject([{ event, kind: 'hook', reason: `${event} wants a look` }]);
  });

  it('a UserPromptSubmit ask with nobody to ask is denied by the fallback', async () => {
    h.hooks.onUserPromptSubmit(() => ask('this prompt mentions prod'));
    const { session: s, model } = session();
    const result = await s.submit('deploy to prod', new AbortController().signal);
    await s.end('other');
    // The fallback dropped it, not the hook (which only asked).
    expect(result).toMatchObject({
      status: 'blocked',
      reason: 'this prompt mentions prod',
      blockedBy: expect.stringMatching(/^the permission fallback \(a UserPromptSubmit hook asked; no permission provider; askFallback: deny\)$/),
    });
    expect(model.requests).toHaveLength(0);
  });
});
