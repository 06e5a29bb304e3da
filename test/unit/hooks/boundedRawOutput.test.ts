import { describe, expect, it } from 'vitest';
import { CommandHookAction } from '../../../src/hooks/actions/commandHookAction';
import { boundRawOutput, headAndTail } from '../../../src/hooks/boundedRawOutput';
import { forEvent } from '../../../src/hooks/hookContext';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../src/hooks/hookRunner';

const env = { session_id: 's', transcript_path: '/tmp/t.jsonl', cwd: '/tmp', agent_id: 'main', parent_agent_id: null, agent_type: 'main' };
const KIB = 1024;

function runnerWith(command: string): HookRunner {
  const registry = new HookRegistry();
  registry.register({ event: 'PreToolUse', action: new CommandHookAction(command), source: { kind: 'code', label: 'test' } });
  return new HookRunner(registry, { projectDir: '/tmp' });
}

const preBash = () => forEvent('PreToolUse', env, { permission_mode: 'default', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' });

describe("what a run record keeps of a hook's output (docs/security.md)", () => {
  it('a deny padded to ~900 KiB is decided from the full stdout, and the record keeps only head + tail', async () => {
    // The JSON object spans the whole output: it can only be parsed from the full capture.
    const script = `const pad = 'x'.repeat(900 * 1024); process.stdout.write(JSON.stringify({ pad, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'too chatty but firm' } }))`;
    const result = await runnerWith(`${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)}`).run('PreToolUse', preBash());

    expect(result.decision).toBe('deny');
    expect(result.reason).toContain('too chatty but firm');
    const raw = result.records[0]?.raw;
    expect(raw?.stdout.length).toBeLessThan(65 * KIB);
    expect(raw?.stdout.startsWith('{"pad":"xxx')).toBe(true);
    expect(raw?.stdout.endsWith('"permissionDecisionReason":"too chatty but firm"}}')).toBe(true);
    expect(raw?.stdout).toMatch(/\n… \d+ bytes cut …\n/);
    expect(raw?.stdoutTruncated).toBe(true);
  });

  it('plain output of 1 MiB on both streams: the record keeps 32 KiB + 32 KiB of each, and says how much was cut', async () => {
    const result = await runnerWith(`head -c 1048576 /dev/zero | tr '\\0' a; head -c 1048576 /dev/zero | tr '\\0' b >&2`).run('PreToolUse', preBash());
    const raw = result.records[0]?.raw;
    expect(raw?.stdout).toBe(`${'a'.repeat(32 * KIB)}\n… ${1024 * KIB - 64 * KIB} bytes cut …\n${'a'.repeat(32 * KIB)}`);
    expect(raw?.stderr).toBe(`${'b'.repeat(32 * KIB)}\n… ${1024 * KIB - 64 * KIB} bytes cut …\n${'b'.repeat(32 * KIB)}`);
  });

  it('short output is kept as is', () => {
    const raw = { stdout: 'ok\n', stderr: '', exitCode: 0 };
    expect(boundRawOutput(raw)).toBe(raw);
  });

  it('never splits a surrogate pair and counts the cut in UTF-8 bytes', () => {
    const text = '😀'.repeat(10);
    const { text: kept, cut } = headAndTail(text, 3, 3);
    expect(cut).toBe(true);
    expect(kept).toBe(`😀\n… ${4 * 7} bytes cut …\n😀😀`);
  });
});
