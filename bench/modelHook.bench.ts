// A BeforeInference command hook on a 100-message conversation, against the spawn floor.
// Measured in the same run, interleaved round by round so machine noise hits both sides alike:
//  - the floor: a bare spawn of `/bin/sh -c 'cat >/dev/null'` fed the same JSON on stdin;
//  - the hook: the request turned into `llm_request` (toLlmRequest), the input built, and one
//    command hook `cat >/dev/null` run on BeforeInference through HookRunner.run;
//  - the same hook behind a matcher that does not match (`other-model`): what an unmatched
//    model-level hook costs per model call (nothing is serialized, nothing spawned).
// Prints medians and ratios (target: the hook ≤ 1.2× the floor). Measures only.
import { spawn } from 'node:child_process';
import { toLlmRequest } from '../src/agent/llmRequest';
import { CommandHookAction } from '../src/hooks/actions/commandHookAction';
import { forEvent } from '../src/hooks/hookContext';
import { HookRegistry } from '../src/hooks/hookRegistry';
import { HookRunner } from '../src/hooks/hookRunner';
import { compileClaudeMatcher } from '../src/hooks/matchers/claudeMatcher';
import type { ModelMessage, ModelRequest } from '../src/model/modelClient';

const cwd = process.cwd();
const env = { session_id: 's', transcript_path: '/tmp/s.jsonl', cwd, agent_id: 'main-1', parent_agent_id: null, agent_type: 'main' };

/** 100 messages: user questions, tool calls with their results, answers (~600 bytes each). */
function conversation(): ModelRequest {
  const messages: ModelMessage[] = [{ role: 'system', content: 'You are a coding agent. '.repeat(40) }];
  for (let i = 0; messages.length < 101; i++) {
    messages.push({ role: 'user', content: `Question ${i}: ${'please look at src/file.ts and explain it '.repeat(12)}` });
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${i}`, name: 'Read', argumentsText: JSON.stringify({ file_path: `src/f${i}.ts` }) }] });
    messages.push({ role: 'tool', toolCallId: `c${i}`, content: `export const x${i} = 1;\n`.repeat(25) });
    messages.push({ role: 'assistant', content: `It exports x${i}. ${'The file is small and clear. '.repeat(15)}` });
  }
  const tools = ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob'].map((name) => ({ name, description: `The ${name} tool.`, parameters: { type: 'object' } }));
  return { messages: messages.slice(0, 101), tools, model: 'bench-model' };
}

function inputOf(request: ModelRequest): Record<string, unknown> {
  return forEvent('BeforeInference', env, { step_index: 3, message_count: 100, model: 'bench-model', llm_request: toLlmRequest(request, 'bench-model') });
}

function bareSpawn(stdin: string): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', 'cat >/dev/null']);
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', () => resolve());
    child.stdin.end(stdin);
  });
}

function runnerWith(matcher: string | undefined): HookRunner {
  const registry = new HookRegistry();
  registry.register({
    event: 'BeforeInference',
    action: new CommandHookAction('cat >/dev/null'),
    source: { kind: 'code', label: 'bench' },
    ...(matcher !== undefined ? { matcher: compileClaudeMatcher(matcher) } : {}),
  });
  return new HookRunner(registry, { projectDir: cwd });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main(): Promise<void> {
  const request = conversation();
  const stdin = JSON.stringify(inputOf(request));
  const matched = runnerWith(undefined);
  const unmatched = runnerWith('other-model');
  const check = await matched.run('BeforeInference', inputOf(request));
  if (check.records[0]?.status !== 'ok') throw new Error(`hook did not run cleanly: ${JSON.stringify(check.records[0]?.error)}`);

  for (let i = 0; i < 20; i++) {
    await bareSpawn(stdin);
    await matched.run('BeforeInference', inputOf(request));
  }
  const floor: number[] = [];
  const hook: number[] = [];
  const skipped: number[] = [];
  for (let i = 0; i < 150; i++) {
    floor.push(await time(() => bareSpawn(stdin)));
    // A fresh input per call, as the agent builds one per model call (no serialization cache hit).
    hook.push(await time(() => matched.run('BeforeInference', inputOf(request))));
    skipped.push(await time(() => unmatched.run('BeforeInference', inputOf(request))));
  }
  const ratio = median(hook) / median(floor);
  console.log(`BeforeInference command hook, 100 messages (${(stdin.length / 1024).toFixed(0)} KiB on stdin):`);
  console.log(`  floor (bare spawn, same stdin)  ${median(floor).toFixed(2)} ms`);
  console.log(`  hook through HookRunner         ${median(hook).toFixed(2)} ms   ${ratio.toFixed(2)}× the floor (target ≤ 1.2×)`);
  console.log(`  matcher does not match          ${median(skipped).toFixed(3)} ms   (request built, nothing serialized or spawned)`);
  console.log(`@bench-json ${JSON.stringify({ modelHookRatio: Number(ratio.toFixed(3)) })}`);
}

void main();
