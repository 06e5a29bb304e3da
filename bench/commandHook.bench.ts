// Latency of command hooks. Measured in the same run, interleaved round by round so
// machine noise hits both sides alike:
//  - the floor: a bare child_process.spawn('/bin/sh', ['-c', 'true']) awaited until 'close';
//  - one command hook `true` on PreToolUse through HookRunner.run (also through the action alone);
//  - 5 such hooks matched on one PreToolUse (run concurrently) vs 5 bare spawns at once;
//  - 10 hooks of `sleep 0.2` on one event (target: all done in ≤ 0.3 s);
//  - the two launchers on the same `true` (lean: hooks; execa: the Bash tool and !commands),
//    to show what each costs per spawn over the floor.
// Prints medians and ratios next to the targets (≤ 1.2× the floor). Measures only.
import { spawn } from 'node:child_process';
import { CommandHookAction } from '../src/hooks/actions/commandHookAction';
import type { HookActionContext } from '../src/hooks/hookAction';
import { forEvent } from '../src/hooks/hookContext';
import { HookRegistry } from '../src/hooks/hookRegistry';
import { HookRunner } from '../src/hooks/hookRunner';
import { execaLauncher } from '../src/shared/execaLauncher';
import { leanLauncher } from '../src/shared/leanLauncher';
import type { ProcessLauncher } from '../src/shared/processLauncher';
import { runShellCommand } from '../src/shared/processRunner';

const cwd = process.cwd();
const env = { session_id: 's', transcript_path: '/tmp/s.jsonl', cwd, agent_id: 'main-1', parent_agent_id: null, agent_type: 'main' };
const input = forEvent('PreToolUse', env, { permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' });

function bareSpawn(): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', 'true']);
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', () => resolve());
  });
}

function runnerWith(commands: readonly string[]): HookRunner {
  const registry = new HookRegistry();
  for (const command of commands) {
    registry.register({ event: 'PreToolUse', action: new CommandHookAction(command), source: { kind: 'code', label: 'bench' } });
  }
  return new HookRunner(registry, { projectDir: cwd });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const launch = (launcher: ProcessLauncher) => runShellCommand('true', { cwd, stdin: '' }, launcher);

async function main(): Promise<void> {
  const one = runnerWith(['true']);
  // Distinct strings: identical commands would be deduplicated to one run (docs/hooks.md §4.6).
  const five = runnerWith(Array.from({ length: 5 }, (_, i) => `true # ${i}`));
  const action = new CommandHookAction('true');
  const ctx: HookActionContext = { event: 'PreToolUse', signal: new AbortController().signal, timeoutMs: 60_000, cwd, projectDir: cwd, sessionId: 's' };

  const check = await one.run('PreToolUse', input);
  if (check.failures.length > 0 || check.records[0]?.status !== 'ok') throw new Error(`hook did not run cleanly: ${JSON.stringify(check.records[0])}`);

  // Warm up both paths (JIT, module init, page cache).
  for (let i = 0; i < 30; i++) {
    await bareSpawn();
    await one.run('PreToolUse', input);
    await action.run(input, ctx);
    await launch(leanLauncher);
    await launch(execaLauncher);
  }

  const rounds = 300;
  const floor: number[] = [];
  const viaRunner: number[] = [];
  const viaAction: number[] = [];
  const viaLean: number[] = [];
  const viaExeca: number[] = [];
  const floor5: number[] = [];
  const runner5: number[] = [];
  for (let i = 0; i < rounds; i++) {
    floor.push(await time(bareSpawn));
    viaRunner.push(await time(() => one.run('PreToolUse', input)));
    viaAction.push(await time(() => action.run(input, ctx)));
    viaLean.push(await time(() => launch(leanLauncher)));
    viaExeca.push(await time(() => launch(execaLauncher)));
    if (i % 3 === 0) {
      floor5.push(await time(() => Promise.all([bareSpawn(), bareSpawn(), bareSpawn(), bareSpawn(), bareSpawn()])));
      runner5.push(await time(() => five.run('PreToolUse', input)));
    }
  }

  const sleepers = runnerWith(Array.from({ length: 10 }, (_, i) => `sleep 0.2 # ${i}`));
  const sleepTimes: number[] = [];
  for (let i = 0; i < 5; i++) sleepTimes.push(await time(() => sleepers.run('PreToolUse', input)));

  const f = median(floor);
  const f5 = median(floor5);
  const row = (label: string, ms: number, note = '') => console.log(`${label.padEnd(52)} ${ms.toFixed(2).padStart(8)} ms${note}`);
  const ratio = (ms: number, base: number) => {
    const r = ms / base;
    return `   ${r.toFixed(2)}× floor (target ≤ 1.2×, ${r <= 1.2 ? 'met' : 'MISSED'})`;
  };
  console.log(`medians over ${rounds} interleaved rounds (${floor5.length} for the 5-hook rows)`);
  row('floor: bare spawn /bin/sh -c true', f);
  row('1 command hook `true` through HookRunner.run', median(viaRunner), ratio(median(viaRunner), f));
  row('1 command hook `true`, CommandHookAction.run alone', median(viaAction), ratio(median(viaAction), f));
  row('floor: 5 bare spawns at once', f5);
  row('5 command hooks on one PreToolUse (concurrent)', median(runner5), ratio(median(runner5), f5));
  const worstSleep = Math.max(...sleepTimes);
  row('10 hooks `sleep 0.2` on one event (worst of 5)', worstSleep, `   (target ≤ 300 ms, ${worstSleep <= 300 ? 'met' : 'MISSED'})`);
  row('10 hooks `sleep 0.2` on one event (median of 5)', median(sleepTimes));
  const perSpawn = (ms: number) => `   ${(ms / f).toFixed(2)}× floor, ${ms - f >= 0 ? '+' : ''}${(ms - f).toFixed(2)} ms per spawn`;
  row('launcher lean (hooks): `true` via runShellCommand', median(viaLean), perSpawn(median(viaLean)));
  row('launcher execa (Bash, !command): `true` likewise', median(viaExeca), perSpawn(median(viaExeca)));
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
