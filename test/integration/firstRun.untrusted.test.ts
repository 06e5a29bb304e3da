/**
 * The first run in real Restricted Mode (the `untrusted` host: Workspace Trust on, never
 * granted): "Always Allow" writes nothing into the workspace's files (a rule is kept for the
 * session, in memory, and the popup says so), and a tour script that needs the project hooks
 * says they are off and why instead of playing its turns.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookwiseApi } from '../../src/extension';
import type { PermissionRequest } from '../../src/hooks/hookRunTypes';
import { PermissionButtons, type PermissionRulePick } from '../../src/presentation/permissionText';
import { ModalPermissionProvider } from '../../src/vscode/permissions/modalPermissionProvider';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('hookwise');

/** A rule's ask as the agent makes it, for `toolName` with the rule "Always Allow" would write. */
function ruleAsk(toolName: string, toolInput: Record<string, unknown>, suggestedRule: string): PermissionRequest {
  return {
    kind: 'rule',
    event: 'PreToolUse',
    toolName,
    toolInput,
    suggestedRule,
    reason: `${toolName} needs your approval`,
    sessionId: 'first-run',
    agentId: 'main',
    agentType: 'main',
    parentAgentId: null,
    askedBy: [],
  };
}

/** Every `.claude/settings.local.json` under the open folders (there must be none). */
function localSettingsFiles(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => path.join(f.uri.fsPath, '.claude', 'settings.local.json')).filter((f) => fs.existsSync(f));
}

suite('first run in Restricted Mode (untrusted host)', () => {
  let api: HookwiseApi;
  let scripts: string;

  suiteSetup(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this host is in Restricted Mode');
    const ext = vscode.extensions.getExtension<HookwiseApi>('hookwise.hookwise');
    assert.ok(ext);
    api = await ext.activate();
    scripts = fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-first-run-'));
  });

  suiteTeardown(async () => {
    for (const key of ['model.provider', 'model.playgroundScript']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(scripts, { recursive: true, force: true });
  });

  test('"Always Allow" writes nothing into an untrusted workspace: the popup offers the session (in memory) and says so', async () => {
    const seen: { buttons: string[]; detail: string }[] = [];
    const provider = new ModalPermissionProvider({
      showProposedChange: async () => undefined,
      // The popup as a person answers it: the strongest allow it offers.
      dialog: async (_message, options, ...items) => {
        const buttons = items.map((i) => i.title);
        seen.push({ buttons, detail: options.detail ?? '' });
        return items.find((i) => i.title === PermissionButtons.alwaysAllow) ?? items.find((i) => i.title === PermissionButtons.allowSession);
      },
    });
    const answer = await provider.requestPermission(ruleAsk('Bash', { command: 'npm test' }, 'Bash(npm test:*)'), AbortSignal.timeout(10_000));
    assert.deepEqual(seen[0]?.buttons, [PermissionButtons.allow, PermissionButtons.allowSession, PermissionButtons.deny]);
    assert.match(
      seen[0]?.detail ?? '',
      /No rule is written to a file here \(an untrusted folder, or no folder open\): "Allow for This Session" keeps Bash\(npm test:\*\) in memory/,
    );
    assert.equal(answer.decision, 'allow');
    assert.equal(answer.scope, 'session');
    assert.deepEqual(localSettingsFiles(), [], 'no settings file in the workspace');
  });

  test("a file rule's picker offers only the session in an untrusted workspace", async () => {
    let picks: readonly PermissionRulePick[] = [];
    let buttons: string[] = [];
    const provider = new ModalPermissionProvider({
      showProposedChange: async () => undefined,
      dialog: async (_message, _options, ...items) => {
        buttons = items.map((i) => i.title);
        return items.find((i) => i.title === PermissionButtons.alwaysAllowPick || i.title === PermissionButtons.allowSessionPick);
      },
      pickRule: async (offered) => {
        picks = offered;
        return offered[0];
      },
    });
    const folder = vscode.workspace.workspaceFolders?.[1]?.uri.fsPath ?? os.tmpdir();
    const answer = await provider.requestPermission(
      ruleAsk('Write', { file_path: path.join(folder, 'src', 'a.ts'), content: 'x' }, 'Edit(src/a.ts)'),
      AbortSignal.timeout(10_000),
    );
    assert.ok(buttons.includes(PermissionButtons.allowSessionPick) && !buttons.includes(PermissionButtons.alwaysAllowPick), buttons.join(', '));
    assert.ok(picks.length > 0 && picks.every((p) => p.scope === 'session'), JSON.stringify(picks));
    assert.equal(answer.scope, 'session');
    assert.deepEqual(localSettingsFiles(), []);
  });

  test('a tour that needs the project hooks says they are off because the folder is not trusted, and runs no tool', async () => {
    const script = path.join(scripts, 'tour.json');
    fs.writeFileSync(
      script,
      JSON.stringify({
        requiresProjectHooks: true,
        turns: [{ text: 'That popup came from a hook.', toolCalls: [{ name: 'Bash', input: { command: 'npm test' } }] }, { text: 'Done.' }],
      }),
    );
    await config().update('model.provider', 'playground', vscode.ConfigurationTarget.Global);
    await config().update('model.playgroundScript', script, vscode.ConfigurationTarget.Global);
    await api.controller.reloadModel();
    await api.controller.newSession();
    assert.equal(await api.controller.submit('start the tour'), true);
    const messages = api.controller.sessions.current?.messages ?? [];
    assert.equal(
      messages.some((m) => m.role === 'tool'),
      false,
      'no tool ran',
    );
    const said = messages
      .filter((m) => m.role === 'assistant')
      .map((m) => m.content)
      .join('\n');
    assert.match(said, /This tour shows what this workspace's project hooks decide, and this folder is not trusted \(Restricted Mode\), so they are off/);
    assert.doesNotMatch(said, /That popup came from a hook/);
  });
});
