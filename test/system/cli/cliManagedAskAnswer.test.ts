import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliRun } from '../../support/cliHarness';
import { parseJsonResult } from '../../support/cliHarness';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useCliSuite } from '../../support/cliSuite';

// A managed `ask` rule opens the permission dialog; as in Claude Code, a PermissionRequest hook
// answers that dialog, a project's hook included. An organisation that wants its `ask` to reach a
// person sets allowManagedHooksOnly: the project's hook then never runs, and with nobody to ask
// (headless, --permission-prompt none) the call is denied. docs/security.md says so.

const suite = useCliSuite();

const managedFile = (): string => path.join(suite.w.base, 'managed-settings.json');
const writeManaged = (value: unknown): Promise<void> => writeFile(managedFile(), JSON.stringify(value, null, 2));

const answerAllow = {
  type: 'command',
  command: `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`,
};

const run = (s: OpenAiTestServer): Promise<CliRun> => suite.runPrompt(s, 'go', 4, '--permission-prompt', 'none');

// The project allows the command itself, so only the managed ask makes it ask.
const projectSettings = { permissions: { allow: ['Bash(touch:*)'] }, hooks: { PermissionRequest: [{ matcher: 'Bash', hooks: [answerAllow] }] } };

const touchCall = [toolCallsReply([{ id: 'b1', name: 'Bash', arguments: { command: 'touch asked-file' } }]), textReply('done')];

describe("a project PermissionRequest hook and the managed policy's ask rule", () => {
  it('the project hook answers the managed ask (Claude Code behaves the same)', async () => {
    await writeManaged({ permissions: { ask: ['Bash(touch:*)'] } });
    await suite.w.settings(projectSettings);
    const out = await run(await suite.serve(touchCall));
    expect(out.code).toBe(0);
    expect(suite.w.exists('asked-file')).toBe(true);
    expect(parseJsonResult(out).hook_runs).toContainEqual(expect.objectContaining({ event: 'PermissionRequest' }));
  });

  it('allowManagedHooksOnly keeps the project hook out: nobody answers the ask, so the call is denied', async () => {
    await writeManaged({ allowManagedHooksOnly: true, permissions: { ask: ['Bash(touch:*)'] } });
    await suite.w.settings(projectSettings);
    const out = await run(await suite.serve(touchCall));
    expect(out.code).toBe(0);
    expect(suite.w.exists('asked-file')).toBe(false);
    expect(parseJsonResult(out).hook_runs ?? []).not.toContainEqual(expect.objectContaining({ event: 'PermissionRequest' }));
  });
});
