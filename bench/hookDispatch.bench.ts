// Dispatch cost of HookRunner.run: 100 registered callable hooks on PreToolUse of
// which 10 match, and 100 of which none match. Prints ns per matched hook and per
// non-matching registration next to the targets (≤ 2 µs, ≤ 50 ns). Measures only.
import { callableAction } from '../src/hooks/callableAction';
import { forEvent } from '../src/hooks/hookContext';
import { HookRegistry } from '../src/hooks/hookRegistry';
import { HookRunner } from '../src/hooks/hookRunner';
import { compileClaudeMatcher } from '../src/hooks/matchers/claudeMatcher';

const env = { session_id: 's', transcript_path: '/tmp/s.jsonl', cwd: '/p', agent_id: 'main-1', parent_agent_id: null, agent_type: 'main' };
const input = forEvent('PreToolUse', env, { permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' });

function build(matching: number, total: number): HookRunner {
  const registry = new HookRegistry();
  for (let i = 0; i < total; i++) {
    registry.register({
      event: 'PreToolUse',
      matcher: compileClaudeMatcher(i < matching ? 'Bash' : `Tool${i}`),
      action: callableAction((ctx: Readonly<Record<string, unknown>>) => (ctx['tool_name'] === 'Bash' ? undefined : { decision: 'deny', reason: 'x' }), {
        label: `h${i}`,
      }),
      source: { kind: 'code', label: 'bench' },
      priority: 0,
    });
  }
  return new HookRunner(registry, { projectDir: '/p' });
}

async function measure(runner: HookRunner, iterations: number): Promise<number> {
  for (let i = 0; i < 20_000; i++) await runner.run('PreToolUse', input); // warm up the JIT
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await runner.run('PreToolUse', input);
  return Number(process.hrtime.bigint() - start) / iterations;
}

async function main(): Promise<void> {
  const tenOfHundred = await measure(build(10, 100), 100_000);
  const noneOfHundred = await measure(build(0, 100), 200_000);
  const empty = await measure(build(0, 0), 500_000);
  const perMatched = (tenOfHundred - noneOfHundred) / 10;
  const perNonMatching = noneOfHundred / 100;
  const row = (label: string, value: number, target?: string) =>
    console.log(
      `${label.padEnd(46)} ${value.toFixed(0).padStart(8)} ns${target ? `   (target ${target}${value <= Number.parseFloat(target.replace(/[^\d.]/g, '')) * (target.includes('µs') ? 1000 : 1) ? ', met' : ', MISSED'})` : ''}`,
    );
  row('run(): 100 registered, 10 match (per run)', tenOfHundred);
  row('run(): 100 registered, none match (per run)', noneOfHundred);
  row('run(): event with no registrations (per run)', empty);
  row('per matched hook', perMatched, '≤ 2 µs');
  row('per matched hook, incl. its share of selection', tenOfHundred / 10, '≤ 2 µs');
  row('per non-matching registration', perNonMatching, '≤ 50 ns');
}

void main();
