import { z } from 'zod';
import { isHookEvent, type HookEvent } from '../hookEvent';
import type { HookEventResult } from '../hookRunTypes';
import { lazySchema } from '../../shared/lazySchema';
import { HOOK_FORMAT_IDS } from '../formats/hookFormat';
import { hookFormatName } from '../formats/formatRegistry';

/**
 * A saved hook test (`.hookwise/hook-tests/<name>.json`): an event, the input hooks read, and
 * what the configured hooks together must decide. Run through the real runner with the
 * workspace's current configuration (`hookwise hooks test`, Test Explorer), so a team can run
 * its hook policy in CI. Format documented in docs/hooks.md (Hook tests).
 */
export const hookTestCaseSchema = lazySchema(() =>
  z.strictObject({
    name: z.string().min(1).max(200),
    event: z.string().refine(isHookEvent, { message: 'not a hook event name' }),
    /** Hook input fields; the common ones (session_id, cwd, hook_event_name, …) are filled in when left out. */
    input: z.record(z.string(), z.unknown()).default({}),
    /**
     * The agent whose hook file the case tests (`copilot`, `cursor`, …). Its hooks get that agent's
     * input from this one, through its adapter, as in a session; the case fails when no hook of that
     * format ran (its file gone, or the format turned off in `hookwise.hooks.formats`).
     */
    format: z.enum(HOOK_FORMAT_IDS).optional(),
    expect: z.strictObject({
      /** `block`: a deny/block of any kind (PreToolUse deny, UserPromptSubmit/PostToolUse/Stop block); `none`: no hook decided. */
      decision: z.enum(['allow', 'deny', 'ask', 'block', 'stop', 'none']).optional(),
      /** A substring of the decision's reason (for an exit-2 hook, its stderr). */
      reason: z.string().optional(),
      /** Keys the merged updatedInput must have, with these values. */
      updatedInput: z.record(z.string(), z.unknown()).optional(),
      /** A substring of the context the hooks add for the model. */
      additionalContext: z.string().optional(),
      /** A substring of a systemMessage shown to the user. */
      systemMessage: z.string().optional(),
      /** A substring of what a model-level hook changed, in Hook Runs' words (`reply redacted`, `messages 42 → 12`). */
      changed: z.string().optional(),
    }),
  }),
);

/** One parsed test case. */
export type HookTestCase = z.infer<typeof hookTestCaseSchema> & { readonly event: HookEvent };

/** Tool events: they get a tool_use_id and must name a tool. */
const TOOL_EVENTS = new Set<string>(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest']);

/** The hook input the case describes, with the fields every real occurrence carries filled in where left out. */
export function fillTestInput(testCase: HookTestCase, cwd: string): Record<string, unknown> {
  const base: Record<string, unknown> = {
    session_id: 'hook-test',
    transcript_path: '',
    cwd,
    permission_mode: 'default',
    hook_event_name: testCase.event,
  };
  if (TOOL_EVENTS.has(testCase.event)) Object.assign(base, { tool_name: '', tool_input: {}, tool_use_id: 'toolu_hook_test' });
  return { ...base, ...testCase.input, hook_event_name: testCase.event };
}

/** The decision a result shows, in the test format's words. */
export function observedDecision(result: HookEventResult): 'allow' | 'deny' | 'ask' | 'block' | 'stop' | 'none' {
  switch (result.decision) {
    case undefined:
      return 'none';
    case 'continue':
      return 'block';
    default:
      return result.decision;
  }
}

/** Why a result does not meet the case's expectations (empty = passed). */
export function checkExpectations(testCase: HookTestCase, result: HookEventResult): string[] {
  const { expect } = testCase;
  const problems: string[] = [];
  const decision = observedDecision(result);
  if (expect.decision !== undefined) {
    // `deny` and `block` are the same verdict under two of Claude Code's names.
    const same = expect.decision === decision || (expect.decision === 'block' && decision === 'deny') || (expect.decision === 'deny' && decision === 'block');
    if (!same) problems.push(`decision: expected ${expect.decision}, got ${decision}${result.reason ? ` (${result.reason})` : ''}`);
  }
  if (expect.reason !== undefined && !(result.reason ?? '').includes(expect.reason))
    problems.push(`reason: expected it to contain ${JSON.stringify(expect.reason)}, got ${JSON.stringify(result.reason ?? '')}`);
  if (expect.updatedInput !== undefined) {
    for (const [key, want] of Object.entries(expect.updatedInput)) {
      const got = result.updatedInput?.[key];
      if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`updatedInput.${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  if (expect.additionalContext !== undefined && !result.additionalContext.some((c) => c.includes(expect.additionalContext as string)))
    problems.push(`additionalContext: expected it to contain ${JSON.stringify(expect.additionalContext)}, got ${JSON.stringify(result.additionalContext)}`);
  if (expect.systemMessage !== undefined && !result.systemMessages.some((m) => m.includes(expect.systemMessage as string)))
    problems.push(`systemMessage: expected it to contain ${JSON.stringify(expect.systemMessage)}, got ${JSON.stringify(result.systemMessages)}`);
  if (expect.changed !== undefined) {
    const changes = result.records.flatMap((r) => (r.effect !== undefined ? [r.effect] : []));
    if (!changes.some((c) => c.includes(expect.changed as string)))
      problems.push(
        `changed: expected a model-level hook to have changed ${JSON.stringify(expect.changed)}, got ${changes.length > 0 ? JSON.stringify(changes) : 'no change'}`,
      );
  }
  if (testCase.format !== undefined) {
    const name = hookFormatName(testCase.format);
    if (!result.records.some((r) => r.source.kind === 'file' && r.source.format === name))
      problems.push(`format: expected a ${name} hook to run, none did (is its file in place, and ${testCase.format} in hookwise.hooks.formats?)`);
  }
  for (const f of result.failures) problems.push(`note: hook ${f.hookLabel} failed: ${f.error ?? f.status}`);
  return problems.filter((p) => !p.startsWith('note: ') || problems.some((q) => !q.startsWith('note: ')));
}
