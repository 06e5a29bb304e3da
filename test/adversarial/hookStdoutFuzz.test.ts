import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashInputSchema, createBashTool } from '../../src/agent/tools/bashTool';
import { validateToolInput } from '../../src/agent/tools/validateToolInput';
import { CommandHookAction } from '../../src/hooks/actions/commandHookAction';
import { interpretCommandResult } from '../../src/hooks/actions/interpretCommandResult';
import type { HookAction, HookActionResult } from '../../src/hooks/hookAction';
import { forEvent } from '../../src/hooks/hookContext';
import { HookRegistry } from '../../src/hooks/hookRegistry';
import { HookRunner } from '../../src/hooks/hookRunner';
import type { HookEventResult } from '../../src/hooks/hookRunTypes';
import { CAP_BYTES, generateHookStdoutCases, type HookStdoutCase } from './support/hookStdoutCases';

/**
 * Adversarial category "hook-stdout" (docs/security.md): thousands of generated hook
 * outputs — over the 1 MiB cap, nested thousands deep, invalid UTF-8, NUL bytes, cut JSON,
 * wrong types, huge strings, many keys — with exit codes 0/1/2/other/signal and
 * continueOnFailure true/false, through the real interpretation and merge path (HookRunner),
 * and a sample through real hook processes printing the bytes. Safe outcome for every case:
 * no crash and a serializable result; exit 2 denies; a deny that parses denies (also when
 * stated before a cut at the cap); unusable output of a fail-closed hook never proceeds;
 * nothing from cut output allows or rewrites; a rewrite carries only keys the tool knows.
 */

const SEED = 0x5eed12;
const CASES = 2400;
const bash = createBashTool();
const BASH_KEYS = new Set(Object.keys(bashInputSchema.shape));

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'hookwise-adv-stdout-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An action that returns what CommandHookAction would for these bytes, without a process. */
function replayAction(c: HookStdoutCase): HookAction {
  const stdoutTruncated = c.stdout.length > CAP_BYTES;
  const stderrTruncated = c.stderr.length > CAP_BYTES;
  // As processRunner: keep the first CAP bytes, then decode (invalid UTF-8 becomes U+FFFD).
  const stdout = c.stdout.subarray(0, CAP_BYTES).toString('utf8');
  const stderr = c.stderr.subarray(0, CAP_BYTES).toString('utf8');
  return {
    kind: 'command',
    label: `case ${c.id}`,
    defaultTimeoutMs: 10_000,
    run: (): Promise<HookActionResult> =>
      Promise.resolve(
        interpretCommandResult('PreToolUse', c.exitCode, stdout, stderr, `case ${c.id}`, c.exitCode === null ? 'SIGKILL' : undefined, {
          stdoutTruncated,
          stderrTruncated,
          maxOutputBytes: CAP_BYTES,
        }),
      ),
  };
}

/** A real hook process that prints the case's bytes and exits as the case says. */
async function processAction(c: HookStdoutCase): Promise<HookAction> {
  const out = path.join(dir, `${c.id}.out`);
  const err = path.join(dir, `${c.id}.err`);
  await Promise.all([writeFile(out, c.stdout), writeFile(err, c.stderr)]);
  const exit = c.exitCode === null ? 'kill -KILL $$' : `exit ${c.exitCode}`;
  return new CommandHookAction(`cat '${out}'; cat '${err}' >&2; ${exit}`);
}

async function runCase(c: HookStdoutCase, action: HookAction): Promise<HookEventResult> {
  const registry = new HookRegistry();
  registry.register({ event: 'PreToolUse', source: { kind: 'code', label: 'fuzz' }, action, continueOnFailure: c.continueOnFailure });
  const runner = new HookRunner(registry, { projectDir: dir });
  const toolInput = { command: 'echo original' };
  const input = forEvent(
    'PreToolUse',
    { session_id: 's', transcript_path: '', cwd: dir, agent_id: 'main', parent_agent_id: null, agent_type: 'main' },
    { permission_mode: 'default', tool_name: 'Bash', tool_input: toolInput, tool_use_id: `t${c.id}` },
  );
  return runner.run('PreToolUse', input, {
    validateUpdatedInput: (candidate) => {
      const check = validateToolInput(bash, { ...toolInput, ...candidate });
      return check.ok ? { ok: true, input: check.input as Record<string, unknown> } : { ok: false, error: check.error };
    },
  });
}

/** The safe outcome of one case; returns the broken rules (empty = safe). */
function violations(c: HookStdoutCase, result: HookEventResult): string[] {
  const broken: string[] = [];
  try {
    JSON.stringify(result);
  } catch (error) {
    broken.push(`result not serializable: ${String(error)}`);
  }
  if (result.reason?.includes('internal error')) broken.push(`internal error: ${result.reason}`);
  const blocked = result.decision === 'deny' || result.decision === 'stop';
  const cut = c.stdout.length > CAP_BYTES;
  const readable = c.exitCode === 0 && c.schemaValid && !c.tooDeep && !c.damaged;
  if (c.exitCode === 2 && !blocked) broken.push('exit 2 did not block');
  if (readable && c.intent === 'deny' && (!cut || c.denyBeforePad) && !blocked) broken.push('a deny that parses did not deny');
  // Text the hook itself broke (cut short, bad bytes) that is not JSON is plain output, as in Claude Code.
  const unusable = c.exitCode !== 0 && c.exitCode !== 2 ? true : c.exitCode === 0 && (cut || (!c.damaged && (c.tooDeep || !c.schemaValid)));
  if (!c.continueOnFailure && unusable && !blocked) broken.push('unusable output of a fail-closed hook proceeded');
  if (cut && result.decision === 'allow') broken.push('cut output allowed the call');
  if (cut && result.updatedInput !== undefined) broken.push('cut output rewrote the call');
  if (result.updatedInput !== undefined) {
    const unknown = Object.keys(result.updatedInput).filter((k) => !BASH_KEYS.has(k));
    if (unknown.length > 0) broken.push(`rewrite carried unknown keys: ${unknown.join(', ')}`);
    if (!bashInputSchema.safeParse(result.updatedInput).success) broken.push('rewrite is not a valid Bash input');
  }
  return broken;
}

describe('adversarial: hook stdout', () => {
  it(`${CASES} generated outputs through the interpretation and merge path, a sample through real processes: always the safe outcome`, async () => {
    const failures: string[] = [];
    let overCap = 0;
    let deep = 0;
    let badBytes = 0;
    let blocked = 0;
    let replayed = 0;
    // Real processes: every 19th case and every over-cap case among the first 1,000 (bounded time).
    const sample: HookStdoutCase[] = [];
    for (const c of generateHookStdoutCases(CASES, SEED)) {
      replayed++;
      if (c.id % 19 === 0 || (c.stdout.length > CAP_BYTES && c.id < 1000)) sample.push(c);
      if (c.stdout.length > CAP_BYTES) overCap++;
      if (c.tooDeep) deep++;
      if (c.badBytes) badBytes++;
      let result: HookEventResult;
      try {
        result = await runCase(c, replayAction(c));
      } catch (error) {
        failures.push(`case ${c.id} (${c.kind}): threw ${String(error)}`);
        continue;
      }
      if (result.decision === 'deny' || result.decision === 'stop') blocked++;
      for (const v of violations(c, result)) failures.push(`case ${c.id} (${c.kind}, exit ${c.exitCode}, cof ${c.continueOnFailure}): ${v}`);
    }

    let peakRss = process.memoryUsage().rss;
    for (const c of sample) {
      const result = await runCase(c, await processAction(c));
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      for (const v of violations(c, result)) failures.push(`process case ${c.id} (${c.kind}, exit ${c.exitCode}, cof ${c.continueOnFailure}): ${v}`);
      const record = result.records[0];
      if (c.stdout.length > CAP_BYTES && record?.raw?.stdoutTruncated !== true) failures.push(`process case ${c.id}: stdout over the cap not flagged as cut`);
    }

    console.log(
      `[adversarial] hook-stdout: ${replayed + sample.length} cases (${replayed} replayed, ${sample.length} real processes), ${failures.length} failures, ` +
        `${overCap} over 1 MiB, ${deep} deeper than 64, ${badBytes} invalid UTF-8/NUL/random, ${blocked} blocked, peak RSS ${Math.round(peakRss / 1048576)} MiB`,
    );
    expect(failures.slice(0, 20)).toEqual([]);
  }, 120_000);
});
