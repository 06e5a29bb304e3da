import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliRun } from '../../support/cliHarness';
import { parseJsonResult, runCliProcess } from '../../support/cliHarness';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// An organisation's managed policy (Claude Code's managed-settings.json; here through
// HOOKWISE_MANAGED_SETTINGS) binds every lower layer: its hooks always run, a project's
// disableAllHooks cannot turn them off, allowManagedHooksOnly / allowManagedPermissionRulesOnly
// drop everyone else's hooks / rules, and disableBypassPermissionsMode refuses bypass.

const suite = useCliSuite();

const managedFile = (): string => path.join(suite.w.base, 'managed-settings.json');
const writeManaged = (value: unknown): Promise<void> => writeFile(managedFile(), JSON.stringify(value, null, 2));
const touch = (name: string) => ({ type: 'command', command: `cat >/dev/null; touch "$CLAUDE_PROJECT_DIR/${name}"` });

function run(s: OpenAiTestServer, ...extra: string[]): Promise<CliRun> {
  return runCliProcess(suite.cli, suite.w, ['-p', 'go', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', '4', ...extra]);
}

const bashCall = (command: string) => [toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command } }]), textReply('done')];

describe('managed policy', () => {
  it("its hooks run even when the project sets disableAllHooks, and the project file is told so; the project's own hooks are off", async () => {
    await writeManaged({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [touch('managed-ran')] }] } });
    await suite.w.settings({
      disableAllHooks: true,
      permissions: { allow: ['Bash'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [touch('project-ran')] }] },
    });
    const out = await run(await suite.serve(bashCall('echo hi')));
    expect(out.code).toBe(0);
    expect(suite.w.exists('managed-ran')).toBe(true);
    expect(suite.w.exists('project-ran')).toBe(false);
    expect(out.stderr).toContain('.claude/settings.json warning disableAllHooks: disableAllHooks here cannot turn off the 1 hook(s) of the managed policy');
    expect(parseJsonResult(out).hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', source: expect.stringContaining('managed policy (') }),
    );
  });

  it('disableAllHooks in the managed policy turns every hook off, its own included', async () => {
    await writeManaged({ disableAllHooks: true, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [touch('managed-ran')] }] } });
    await suite.w.settings({ permissions: { allow: ['Bash'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [touch('project-ran')] }] } });
    const out = await run(await suite.serve(bashCall('echo hi')));
    expect([suite.w.exists('managed-ran'), suite.w.exists('project-ran')]).toEqual([false, false]);
    expect(out.stderr).toContain('hooks are disabled by managed policy (');
  });

  it('allowManagedHooksOnly: only managed hooks run — not the user’s, the project’s or an agent file’s — and each skipped file gets a warning', async () => {
    await writeManaged({ allowManagedHooksOnly: true, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [touch('managed-ran')] }] } });
    await suite.w.settings({ permissions: { allow: ['Bash'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [touch('project-ran')] }] } });
    await suite.w.write(
      '.claude/agents/helper.md',
      '---\nname: helper\ndescription: helps\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: touch agent-ran\n---\nHelp.\n',
    );
    const out = await run(await suite.serve(bashCall('echo hi')));
    expect([suite.w.exists('managed-ran'), suite.w.exists('project-ran')]).toEqual([true, false]);
    expect(out.stderr).toContain(
      '.claude/settings.json warning : 1 hook(s) here is ignored: the managed policy (' + managedFile() + ') allows only its own hooks (allowManagedHooksOnly)',
    );
    expect(out.stderr).toMatch(/\.claude\/agents\/helper\.md warning : 1 hook\(s\) here is ignored/);
    const list = await runCliProcess(suite.cli, suite.w, ['hooks', 'list', '--json']);
    expect((JSON.parse(list.stdout) as { source: string }[]).map((h) => h.source)).toEqual([
      `managed policy (${managedFile()}) › hooks.PreToolUse[0].hooks[0]`,
    ]);
    // Explain still lists the hooks the policy keeps out, and says why.
    const explain = await runCliProcess(suite.cli, suite.w, ['hooks', 'explain', '--event', 'PreToolUse', '--tool', 'Bash', '--json']);
    const rows = JSON.parse(explain.stdout) as { source: string; outcome: string; reason: string }[];
    expect(rows.filter((r) => r.outcome === 'skipped').map((r) => [r.source, r.reason])).toEqual([
      [
        '.claude/settings.json › hooks.PreToolUse[0].hooks[0]',
        `managed-only policy: managed policy (${managedFile()}) allows only its own hooks (allowManagedHooksOnly)`,
      ],
      ['.claude/agents/helper.md › hooks.PreToolUse[0].hooks[0]', expect.stringMatching(/^managed-only policy: /)],
    ]);
  });

  it("allowManagedPermissionRulesOnly drops the project's allow rule (Bash asks and, headless, is denied); a managed deny beats a project allow", async () => {
    await writeManaged({ allowManagedPermissionRulesOnly: true, permissions: { deny: ['Bash(curl:*)'] } });
    await suite.w.settings({ permissions: { allow: ['Bash'] } });
    const asked = await run(await suite.serve(bashCall('echo hi > out.txt')));
    expect(suite.w.exists('out.txt')).toBe(false);
    expect(asked.stderr).toContain('1 permission rule(s) here is ignored');
  });

  it('a managed deny rule binds a project allow rule', async () => {
    await writeManaged({ permissions: { deny: ['Bash(echo:*)'] } });
    await suite.w.settings({ permissions: { allow: ['Bash'] } });
    await run(await suite.serve(bashCall('echo hi > out.txt')));
    expect(suite.w.exists('out.txt')).toBe(false);
  });

  it('disableBypassPermissionsMode: --permission-mode bypassPermissions falls back to default (a write asks and, headless, is denied)', async () => {
    await writeManaged({ permissions: { disableBypassPermissionsMode: 'disable' } });
    const s = await suite.serve([
      toolCallsReply([{ id: 'w1', name: 'Write', arguments: { file_path: path.join(suite.w.ws, 'out.txt'), content: 'x' } }]),
      textReply('done'),
    ]);
    const out = await run(s, '--permission-mode', 'bypassPermissions');
    expect(suite.w.exists('out.txt')).toBe(false);
    expect(out.stderr).toContain('bypassPermissions is turned off by managed policy');
  });
});
