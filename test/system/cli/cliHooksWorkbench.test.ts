import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliProcess } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

// `hookwise hooks list|explain|test`: what a user runs to see which hooks apply, why one did not
// fire, and to keep a hook policy tested in CI — through the built CLI, with real hook processes.

const suite = useCliSuite();

/** A project with a Bash guard (exit 2 on rm -rf), a Write formatter, a Stop hook, and a copy of the guard in settings.local.json. */
async function policyWorkspace(): Promise<void> {
  const { w } = suite;
  await w.write(
    'guard.sh',
    '#!/bin/sh\ninput=$(cat)\necho "$input" >> "$CLAUDE_PROJECT_DIR/ran.log"\ncase "$input" in *"rm -rf"*) echo "rm -rf is blocked" >&2; exit 2;; esac\nexit 0\n',
  );
  const guard = { type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR/guard.sh"' };
  await w.settings({
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [guard] },
        { matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/formatter-ran"' }] },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'touch "$CLAUDE_PROJECT_DIR/stop-ran"' }] }],
    },
  });
  await w.write('.claude/settings.local.json', JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [guard] }] } }));
}

describe('hookwise hooks list', () => {
  it('prints the effective hooks in run order with their sources, as JSON only with --json, and runs none', async () => {
    await policyWorkspace();
    const run = await runCliProcess(suite.cli, suite.w, ['hooks', 'list', '--json']);
    expect(run.code).toBe(0);
    const hooks = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(hooks.map((h) => [h.event, h.matcher, h.command, h.source])).toEqual([
      ['PreToolUse', 'Bash', 'sh "$CLAUDE_PROJECT_DIR/guard.sh"', '.claude/settings.json › hooks.PreToolUse[0].hooks[0]'],
      ['PreToolUse', 'Write|Edit', 'touch "$CLAUDE_PROJECT_DIR/formatter-ran"', '.claude/settings.json › hooks.PreToolUse[1].hooks[0]'],
      ['Stop', undefined, 'touch "$CLAUDE_PROJECT_DIR/stop-ran"', '.claude/settings.json › hooks.Stop[0].hooks[0]'],
    ]);
    expect(existsSync(path.join(suite.w.ws, 'stop-ran'))).toBe(false);
    const text = await runCliProcess(suite.cli, suite.w, ['hooks', 'list', '--cwd', suite.w.ws]);
    expect(text.stdout).toContain('PreToolUse [Bash] command: sh "$CLAUDE_PROJECT_DIR/guard.sh" — .claude/settings.json › hooks.PreToolUse[0].hooks[0]');
  });
});

describe('hookwise hooks list lint', () => {
  it('warns on stderr about a missing script and a matcher naming no tool, with file and line; --json stdout stays JSON', async () => {
    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/gone.sh' }] }] },
    });
    const run = await runCliProcess(suite.cli, suite.w, ['hooks', 'list', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveLength(1);
    expect(run.stderr).toMatch(/\.claude\/settings\.json:\d+:\d+ warning hooks\.PreToolUse\[0\]\.matcher: matcher names `bash`.*did you mean `Bash`\?/);
    expect(run.stderr).toMatch(/\.claude\/settings\.json:\d+:\d+ warning hooks\.PreToolUse\[0\]\.hooks\[0\]\.command: script .*gone\.sh does not exist/);
  });
});

describe('hookwise hooks explain', () => {
  it('says which hooks would run for a tool call and why the others would not, without running any', async () => {
    await policyWorkspace();
    const run = await runCliProcess(suite.cli, suite.w, [
      'hooks',
      'explain',
      '--event',
      'PreToolUse',
      '--tool',
      'Bash',
      '--input',
      '{"command":"rm -rf /"}',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as { command: string; source: string; outcome: string; reason: string }[];
    expect(rows.map((r) => [r.source, r.outcome])).toEqual([
      ['.claude/settings.json › hooks.PreToolUse[0].hooks[0]', 'would run'],
      ['.claude/settings.json › hooks.PreToolUse[1].hooks[0]', 'skipped'],
      ['.claude/settings.local.json › hooks.PreToolUse[0].hooks[0]', 'skipped'],
    ]);
    expect(rows[0]?.reason).toBe('matcher `Bash` matches tool_name `Bash`');
    expect(rows[1]?.reason).toBe('matcher `Write|Edit` does not match tool_name `Bash`');
    expect(rows[2]?.reason).toMatch(/identical to .claude\/settings.json › hooks.PreToolUse\[0\]\.hooks\[0\]/);
    expect(suite.w.exists('ran.log')).toBe(false);
  });

  it('an event without matchers runs every hook; a bad --event or --input is a usage error naming it', async () => {
    await policyWorkspace();
    const stop = await runCliProcess(suite.cli, suite.w, ['hooks', 'explain', '--event', 'Stop']);
    expect(stop.stdout).toMatch(/would run {2}touch "\$CLAUDE_PROJECT_DIR\/stop-ran"[\s\S]*Stop ignores matchers/);
    expect(suite.w.exists('stop-ran')).toBe(false);
    const bad = await runCliProcess(suite.cli, suite.w, ['hooks', 'explain', '--event', 'PreToolUze']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--event PreToolUze is not a hook event name — did you mean PreToolUse?')]);
    const far = await runCliProcess(suite.cli, suite.w, ['hooks', 'explain', '--event', 'Xyzzy']);
    expect([far.code, far.stderr]).toEqual([2, expect.stringMatching(/--event Xyzzy is not a hook event name; events: PreToolUse, .*Stop/)]);
    const badInput = await runCliProcess(suite.cli, suite.w, ['hooks', 'explain', '--event', 'PreToolUse', '--input', '{nope']);
    expect([badInput.code, badInput.stderr]).toEqual([2, expect.stringContaining('--input is not JSON')]);
  });
  it('--run runs the matching hooks on the sample input and prints what each decided and the merged decision', async () => {
    await policyWorkspace();
    const args = ['hooks', 'explain', '--event', 'PreToolUse', '--tool', 'Bash', '--input', '{"command":"rm -rf build"}', '--run'];
    const json = await runCliProcess(suite.cli, suite.w, [...args, '--json']);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as {
      hooks: { outcome: string }[];
      run: { decision: string; reason?: string; hooks: { source: string; outcome: string }[] };
    };
    expect(out.hooks.map((r) => r.outcome)).toEqual(['would run', 'skipped', 'skipped']);
    expect(out.run.decision).toBe('deny');
    expect(out.run.reason).toContain('rm -rf is blocked');
    // The guard ran once, on the sample input; the Write formatter did not.
    expect(out.run.hooks.map((h) => h.source)).toEqual(['.claude/settings.json › hooks.PreToolUse[0].hooks[0]']);
    expect(await suite.w.read('ran.log')).toContain('"command":"rm -rf build"');
    expect(suite.w.exists('formatter-ran')).toBe(false);
    const text = await runCliProcess(suite.cli, suite.w, args);
    expect(text.stdout).toMatch(/ran {8}.*guard\.sh[\s\S]*decision: deny — rm -rf is blocked/);
    const allowed = await runCliProcess(suite.cli, suite.w, [
      'hooks',
      'explain',
      '--event',
      'PreToolUse',
      '--tool',
      'Bash',
      '--input',
      '{"command":"ls"}',
      '--run',
    ]);
    expect(allowed.stdout).toContain('decision: none');
  });
});

describe('hookwise hooks test', () => {
  it('runs saved cases through the real hooks: one line per case, a summary, exit 1 when one fails', async () => {
    await policyWorkspace();
    const { w } = suite;
    await w.write(
      '.hookwise/hook-tests/blocks-rm.json',
      JSON.stringify({
        name: 'rm -rf is blocked',
        event: 'PreToolUse',
        input: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } },
        expect: { decision: 'deny', reason: 'is blocked' },
      }),
    );
    await w.write(
      '.hookwise/hook-tests/ls-passes.json',
      JSON.stringify({
        name: 'ls goes through',
        event: 'PreToolUse',
        input: { tool_name: 'Bash', tool_input: { command: 'ls' } },
        expect: { decision: 'none' },
      }),
    );
    const green = await runCliProcess(suite.cli, w, ['hooks', 'test']);
    expect([green.code, green.stdout]).toEqual([0, '✓ rm -rf is blocked\n✓ ls goes through\n2 passed, 0 failed\n']);
    // The guard really ran, with the common input fields filled in.
    const seen = w.jsonLines('ran.log');
    expect(seen[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
      cwd: w.ws,
      session_id: 'hook-test',
    });

    await w.write(
      '.hookwise/hook-tests/wrong.json',
      JSON.stringify({
        name: 'expects rm allowed',
        event: 'PreToolUse',
        input: { tool_name: 'Bash', tool_input: { command: 'rm -rf x' } },
        expect: { decision: 'allow' },
      }),
    );
    await w.write('.hookwise/hook-tests/broken.json', '{"name": "no event", "expect": {}}');
    const red = await runCliProcess(suite.cli, w, ['hooks', 'test', '--cwd', w.ws]);
    expect(red.code).toBe(1);
    expect(red.stdout).toContain('✗ broken.json: ');
    expect(red.stdout).toContain('broken.json: event:');
    expect(red.stdout).toContain('✗ expects rm allowed\n    decision: expected allow, got deny (rm -rf is blocked)');
    expect(red.stdout).toMatch(/2 passed, 2 failed\n$/);
  });

  it('named files run alone; no cases at all is a failure, not a silent pass', async () => {
    await policyWorkspace();
    const none = await runCliProcess(suite.cli, suite.w, ['hooks', 'test']);
    expect([none.code, none.stderr]).toEqual([1, expect.stringContaining('no hook tests found')]);
    const file = await suite.w.write(
      'cases/stop.json',
      JSON.stringify({ name: 'stop hook runs quietly', event: 'Stop', input: { stop_hook_active: false }, expect: { decision: 'none' } }),
    );
    const one = await runCliProcess(suite.cli, suite.w, ['hooks', 'test', file]);
    expect([one.code, one.stdout]).toEqual([0, '✓ stop hook runs quietly\n1 passed, 0 failed\n']);
    expect(suite.w.exists('stop-ran')).toBe(true);
  });
});

describe('hookwise hooks … --plugin-dir', () => {
  /** A plugin root whose hooks.json guard refuses rm -rf and records its CLAUDE_PLUGIN_ROOT. */
  async function guardPlugin(): Promise<string> {
    const { w } = suite;
    const root = path.join(w.base, 'guard-kit');
    const write = async (rel: string, text: string): Promise<void> => {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), text);
    };
    await write('.claude-plugin/plugin.json', JSON.stringify({ name: 'guard-kit' }));
    await write(
      'hooks/hooks.json',
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/guard.sh"' }] }] } }),
    );
    await write(
      'guard.sh',
      'input=$(cat)\necho "$CLAUDE_PLUGIN_ROOT" > "$CLAUDE_PROJECT_DIR/plugin-root.txt"\ncase "$input" in *"rm -rf"*) echo "guard-kit: no rm -rf" >&2; exit 2;; esac\n',
    );
    return root;
  }

  it('list, explain and test include the hooks of a --plugin-dir plugin, labelled with it; test runs them with CLAUDE_PLUGIN_ROOT', async () => {
    const { w } = suite;
    const root = await guardPlugin();
    const source = 'plugin guard-kit › hooks/hooks.json › hooks.PreToolUse[0].hooks[0]';
    const without = await runCliProcess(suite.cli, w, ['hooks', 'list', '--json']);
    expect(JSON.parse(without.stdout)).toEqual([]);
    const list = await runCliProcess(suite.cli, w, ['hooks', 'list', '--json', '--plugin-dir', root]);
    expect(list.code).toBe(0);
    expect((JSON.parse(list.stdout) as Record<string, unknown>[]).map((h) => [h.event, h.matcher, h.command, h.source])).toEqual([
      ['PreToolUse', 'Bash', `sh "${root}/guard.sh"`, source],
    ]);
    const explain = await runCliProcess(suite.cli, w, ['hooks', 'explain', '--event', 'PreToolUse', '--tool', 'Bash', '--json', '--plugin-dir', root]);
    expect((JSON.parse(explain.stdout) as { source: string; outcome: string }[]).map((r) => [r.source, r.outcome])).toEqual([[source, 'would run']]);
    expect(w.exists('plugin-root.txt')).toBe(false);
    await w.write(
      '.hookwise/hook-tests/rm.json',
      JSON.stringify({
        name: 'plugin blocks rm',
        event: 'PreToolUse',
        input: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } },
        expect: { decision: 'deny' },
      }),
    );
    const test = await runCliProcess(suite.cli, w, ['hooks', 'test', '--plugin-dir', root]);
    expect([test.code, test.stdout]).toEqual([0, '✓ plugin blocks rm\n1 passed, 0 failed\n']);
    expect(w.read('plugin-root.txt').trim()).toBe(root);
  });

  it('a --plugin-dir that does not exist is reported with its path; the other hooks still list', async () => {
    await policyWorkspace();
    const missing = path.join(suite.w.base, 'nope');
    const run = await runCliProcess(suite.cli, suite.w, ['hooks', 'list', '--json', '--plugin-dir', missing]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`hookwise: ${missing}: plugin directory not found; it is skipped`);
    expect(JSON.parse(run.stdout)).toHaveLength(3);
  });
});
