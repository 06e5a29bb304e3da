import { decisionRank } from '../../hooks/hookOutcome';
import type { HookDecision } from '../../hooks/hookOutcome';
import type { HookRunRecord } from '../../hooks/hookRunTypes';
import type { HookTestCase } from '../../hooks/explain/hookTestCase';
import { registeredHookFormats } from '../../hooks/formats/formatRegistry';
import type { HookFormatId } from '../../hooks/formats/hookFormat';

/**
 * Turns one recorded event occurrence (its hook runs) into a hook test case (the format of
 * `.hookwise/hook-tests/*.json`, docs/hooks.md "Hook tests"): the event, the input as recorded
 * without the fields that only name one session, and an `expect` with the merged decision and
 * the deciding hook's reason, and the agent format when another agent's hook file decided (or ran
 * alone). Pure: the Hook Runs "Save as Test Case" command writes the result.
 */

/** Input fields that belong to one session or machine: a test fills its own (see fillTestInput). */
const SESSION_FIELDS = new Set(['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'tool_use_id', 'prompt_id', 'agent_id', 'agent_transcript_path']);

/** Longest reason kept in `expect.reason` (a substring check: a prefix is enough and stays readable). */
const MAX_REASON = 200;

/** The decision one run contributed (undefined: none, or the run failed). */
function runDecision(record: HookRunRecord): HookDecision | undefined {
  switch (record.status) {
    case 'blocked':
      return record.outcome?.decision ?? 'deny';
    case 'asked':
      // The hook said ask; the person's answer is not the hook's decision.
      return 'ask';
    case 'ok':
      return record.outcome?.decision;
    default:
      return undefined;
  }
}

/** The test case `runs` (all runs of one occurrence, non-empty) describe, named `name`. */
export function testCaseFromRuns(name: string, runs: readonly HookRunRecord[]): HookTestCase {
  const first = runs[0];
  if (!first) throw new RangeError('an occurrence has at least one run');
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(first.input)) if (!SESSION_FIELDS.has(key)) input[key] = value;
  let decided: HookRunRecord | undefined;
  let decision: HookDecision | undefined;
  for (const run of runs) {
    const d = runDecision(run);
    if (decisionRank(d) > decisionRank(decision)) {
      decision = d;
      decided = run;
    }
  }
  const expect: HookTestCase['expect'] = { decision: decision === undefined ? 'none' : decision === 'continue' ? 'block' : decision };
  // An exit-2 hook's stderr is its reason (recorded as the outcome's reason, or as the error text).
  const reason = decided ? (decided.outcome?.reason ?? (decided.status === 'blocked' ? decided.error : undefined)) : undefined;
  const firstLine = reason?.trim().split('\n')[0]?.trim();
  if (firstLine) expect.reason = firstLine.slice(0, MAX_REASON);
  // A model-level hook's rewrite is what the case is about, even without a decision.
  const changed = runs.find((r) => r.effect !== undefined)?.effect;
  if (changed !== undefined) expect.changed = changed;
  const format = formatOf(decided) ?? soleFormat(runs);
  return { name, event: first.event, ...(format !== undefined ? { format } : {}), input, expect };
}

/** The format id of a run of another agent's hook (its source names the agent: `Copilot`). */
function formatOf(run: HookRunRecord | undefined): HookFormatId | undefined {
  const name = run?.source.kind === 'file' ? run.source.format : undefined;
  return name === undefined ? undefined : registeredHookFormats().find((f) => f.displayName === name)?.id;
}

/** The one format every run shares, when no hook decided. */
function soleFormat(runs: readonly HookRunRecord[]): HookFormatId | undefined {
  const formats = new Set(runs.map(formatOf));
  const [only] = formats;
  return formats.size === 1 ? only : undefined;
}

/** A file name (without `.json`) from a case name: letters, digits, `-`, `_`, `.`; at most 80 characters. */
export function testCaseFileName(name: string): string {
  const slug = name
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 80);
  return slug || 'hook-test';
}

/** A default name for the case, e.g. `PreToolUse Bash deny`. */
export function defaultTestCaseName(runs: readonly HookRunRecord[]): string {
  const first = runs[0];
  if (!first) return 'hook-test';
  const decision = testCaseFromRuns('x', runs).expect.decision;
  return [first.event, first.matchValue, decision].filter((p) => p).join(' ');
}
