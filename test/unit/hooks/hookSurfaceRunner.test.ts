import { describe, expect, it } from 'vitest';
import { CommandHookAction } from '../../../src/hooks/actions/commandHookAction';
import { readAgentFileText } from '../../../src/hooks/config/agentFileReader';
import { readClaudeSettingsText } from '../../../src/hooks/config/claudeSettingsReader';
import { dedupHooks } from '../../../src/hooks/config/hookDedup';
import { bindLoadedHooks } from '../../../src/hooks/hookBinder';
import { forEvent } from '../../../src/hooks/hookContext';
import { HookRegistry } from '../../../src/hooks/hookRegistry';
import { HookRunner } from '../../../src/hooks/hookRunner';
import type { HookRunRecord } from '../../../src/hooks/hookRunTypes';
import { renderHookRun } from '../../../src/vscode/tree/hookRunText';

const envelope = (session: string) => ({
  session_id: session,
  transcript_path: '/tmp/t.jsonl',
  cwd: '/tmp',
  agent_id: 'main',
  parent_agent_id: null,
  agent_type: 'main',
});
const preBash = (command: string, session = 's1') =>
  forEvent('PreToolUse', envelope(session), { permission_mode: 'default', tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' });
const source = { kind: 'code', label: 'test' } as const;

describe('suppressOutput', () => {
  const print = (json: object) => `echo '${JSON.stringify(json)}'`;

  it("hides the hook's stdout from its run record (Hook Runs, chat, transcript) but still applies its output", async () => {
    const registry = new HookRegistry();
    registry.register({ event: 'PreToolUse', action: new CommandHookAction(print({ suppressOutput: true, reason: 'r', decision: 'block' })), source });
    const result = await new HookRunner(registry, { projectDir: '/tmp' }).run('PreToolUse', preBash('ls'));
    const record = result.records[0] as HookRunRecord;
    expect(result.decision).toBe('deny');
    expect(record.raw?.stdout).toBe('');
    expect(record.raw?.stdoutSuppressed).toBe(true);
    expect(renderHookRun(record)).toContain('(hidden: the hook asked suppressOutput)');
  });

  it('without it the stdout is kept', async () => {
    const registry = new HookRegistry();
    registry.register({ event: 'PreToolUse', action: new CommandHookAction(print({ systemMessage: 'hi' })), source });
    const result = await new HookRunner(registry, { projectDir: '/tmp' }).run('PreToolUse', preBash('ls'));
    expect(result.records[0]?.raw?.stdout).toContain('"systemMessage"');
  });
});

describe('if and once on the runner', () => {
  it('a false `if` skips the hook and the event result says why; statusMessage is on the record from the start', async () => {
    const md = [
      '---',
      'name: helper',
      'hooks:',
      '  PreToolUse:',
      '    - matcher: Bash',
      '      hooks:',
      '        - type: command',
      '          command: "true"',
      '          if: "Bash(git push:*)"',
      '          statusMessage: Checking the push…',
      '---',
      'body',
    ].join('\n');
    const loaded = readAgentFileText(md, { file: '/p/.claude/agents/helper.md', displayFile: '.claude/agents/helper.md' });
    expect(loaded.diagnostics).toEqual([]);
    const hooks = loaded.hooks.map((e) => ({ event: e.event, ...(e.matcher ? { matcher: e.matcher } : {}), handler: e.handler, source, hash: 'h' }));
    const { inits, problems } = bindLoadedHooks(hooks, { permissionContext: { projectRoot: '/p' } });
    expect(problems).toEqual([]);
    const registry = new HookRegistry();
    registry.setConfigHooks(1, inits);
    const started: HookRunRecord[] = [];
    const runner = new HookRunner(registry, { projectDir: '/tmp', observers: [{ onHookStarted: (r) => started.push(r) }] });

    const skipped = await runner.run('PreToolUse', preBash('git status'));
    expect(skipped.records).toEqual([]);
    expect(skipped.skipped).toEqual([expect.objectContaining({ hookLabel: 'true', reason: 'if Bash(git push:*) is false' })]);

    const ran = await runner.run('PreToolUse', preBash('git push origin main'));
    expect(ran.records).toHaveLength(1);
    expect(started.map((r) => r.statusMessage)).toEqual(['Checking the push…']);
  });

  it('once (agent files): runs once per session; another session runs it again', async () => {
    const md = [
      '---',
      'name: helper',
      'hooks:',
      '  PreToolUse:',
      '    - hooks:',
      '        - type: command',
      '          command: "true"',
      '          once: true',
      '---',
      '',
    ].join('\n');
    const loaded = readAgentFileText(md, { file: '/p/.claude/agents/helper.md', displayFile: '.claude/agents/helper.md' });
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.hooks[0]?.handler.once).toBe(true);
    const { inits } = bindLoadedHooks(
      loaded.hooks.map((e) => ({ event: e.event, handler: e.handler, source, hash: 'h' })),
      {},
    );
    const registry = new HookRegistry();
    registry.setConfigHooks(1, inits);
    const runner = new HookRunner(registry, { projectDir: '/tmp' });

    expect((await runner.run('PreToolUse', preBash('ls', 'a'))).records).toHaveLength(1);
    const second = await runner.run('PreToolUse', preBash('ls', 'a'));
    expect(second.records).toHaveLength(0);
    expect(second.skipped?.[0]?.reason).toBe('once: it already ran in this session');
    expect((await runner.run('PreToolUse', preBash('ls', 'b'))).records).toHaveLength(1);
  });
});

describe('JSON on a failing exit code and continueOnFailure: false', () => {
  const runWith = async (command: string, continueOnFailure: boolean) => {
    const registry = new HookRegistry();
    registry.register({ event: 'PreToolUse', action: new CommandHookAction(command), source, continueOnFailure });
    return new HookRunner(registry, { projectDir: '/tmp' }).run('PreToolUse', preBash('ls'));
  };
  const allowThenExit1 = `echo '{"decision":"approve"}'; exit 1`;

  it('a fail-open hook: the JSON decides (as in Claude Code)', async () => {
    expect((await runWith(allowThenExit1, true)).decision).toBe('allow');
  });

  it('a fail-closed hook: an exit code other than 0/2 denies unless its JSON itself blocks', async () => {
    const refused = await runWith(allowThenExit1, false);
    expect(refused.decision).toBe('deny');
    expect(refused.records[0]?.error).toMatch(/Failed with non-blocking status code 1.*fails closed/);
    const blocking = await runWith(`echo '{"decision":"block","reason":"policy says no"}'; exit 1`, false);
    expect(blocking).toMatchObject({ decision: 'deny', reason: 'policy says no' });
  });
});

describe('if and dedup', () => {
  it('the same command under two different `if`s is two hooks: each runs for its own calls', async () => {
    const settings = {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'true', if: 'Bash(git push:*)' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'true', if: 'Bash(npm publish:*)' }] },
        ],
      },
    };
    const content = readClaudeSettingsText(JSON.stringify(settings), { displayFile: '.claude/settings.json' });
    const loaded = content.hooks.map((e) => ({ event: e.event, ...(e.matcher ? { matcher: e.matcher } : {}), handler: e.handler, source, hash: 'h' }));
    expect(dedupHooks(loaded).kept).toHaveLength(2);
    const registry = new HookRegistry();
    registry.setConfigHooks(1, bindLoadedHooks(loaded, { permissionContext: { projectRoot: '/p' } }).inits);
    const runner = new HookRunner(registry, { projectDir: '/tmp' });

    expect((await runner.run('PreToolUse', preBash('npm publish'))).records).toHaveLength(1);
    expect((await runner.run('PreToolUse', preBash('git push'))).records).toHaveLength(1);
    expect((await runner.run('PreToolUse', preBash('ls'))).records).toHaveLength(0);
  });
});

describe('exec form', () => {
  it('a program that does not exist fails with "program not found", naming it', async () => {
    const registry = new HookRegistry();
    registry.register({ event: 'PreToolUse', action: new CommandHookAction('/no/such/program', { args: ['x'] }), source });
    const result = await new HookRunner(registry, { projectDir: '/tmp' }).run('PreToolUse', preBash('ls'));
    expect(result.records[0]).toMatchObject({ status: 'failed', error: 'program not found: /no/such/program' });
  });
});
