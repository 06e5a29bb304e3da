/**
 * The first run's trust flow in the real extension host, over the fixture folder's project hook:
 * Trust is one flow (one question that lists and allows the hooks, then the folder is trusted,
 * and no second question), the chat's Restricted Mode notice says what is off and goes once the
 * allowed hooks are in force, and a tour script that needs them says why they are off instead of
 * claiming a hook decided. Workspace Trust is a fake here (this host has it off); the untrusted
 * host covers the real Restricted Mode (firstRun.untrusted.test.ts).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { isProjectSource } from '../../src/configFiles/hookSource';
import type { WorkspaceTrustSource } from '../../src/vscode/config/projectHookTrust';
import { TRUST_AND_ALLOW } from '../../src/vscode/config/projectHookApprovalFlow';
import { projectHooksState, tourHeldText } from '../../src/vscode/config/projectHooksState';
import { RestrictedModeNotice, TRUST_ACTION_LABEL } from '../../src/vscode/config/restrictedModeNotice';
import { createHarness, waitForChange, type ServiceHarness } from './configSupport';

/** A Workspace Trust that the "editor" grants when asked, as a person pressing VS Code's Trust would. */
class FakeTrust implements WorkspaceTrustSource {
  private readonly granted = new vscode.EventEmitter<void>();
  readonly onDidGrantWorkspaceTrust = this.granted.event;
  isTrusted = false;
  requests = 0;
  /** False: the person closes VS Code's Trust editor without trusting. */
  grantOnRequest = true;
  readonly requestTrust = async (): Promise<void> => {
    this.requests++;
    if (!this.grantOnRequest) return;
    this.isTrusted = true;
    this.granted.fire();
  };
  dispose(): void {
    this.granted.dispose();
  }
}

/** A chat notice bar: what it shows now. */
class FakeNoticeBar {
  shown: { text: string; actions: string[] } | undefined;
  async showNotice(text: string, actions: readonly { id: string; label: string }[] = []): Promise<string | undefined> {
    this.shown = { text, actions: actions.map((a) => a.label) };
    return new Promise(() => {});
  }
  clearNotice(): void {
    this.shown = undefined;
  }
}

suite('first run: Trust is one flow', () => {
  let harness: ServiceHarness | undefined;
  let trust: FakeTrust;

  setup(() => {
    trust = new FakeTrust();
  });

  teardown(() => {
    harness?.dispose();
    harness = undefined;
    trust.dispose();
  });

  test('one question lists the project hooks; after "Trust and Allow Hooks" and the grant they run, and nothing else asks', async () => {
    harness = createHarness({ trusted: false, trust, approve: () => 'allow' });
    const notice = new FakeNoticeBar();
    const before = await harness.service.reload();
    const restricted = new RestrictedModeNotice(harness.service.onDidChange, notice, trust, before);
    try {
      assert.deepEqual(notice.shown?.actions, [TRUST_ACTION_LABEL]);
      assert.match(notice.shown?.text ?? '', /^Restricted Mode: this folder is not trusted, so its 1 project hook \(\.claude\/settings\.json\) is off/);
      assert.match(tourHeldText(projectHooksState(before, false)) ?? '', /not trusted \(Restricted Mode\)/);

      assert.equal(await harness.service.trustAndApprove(), true);
      assert.equal(harness.approvalRequests.length, 1, 'one question');
      const [question] = harness.approvalRequests;
      assert.match(question?.message ?? '', /trust this folder and allow its 1 project hook to run\?/);
      assert.equal(question?.allowLabel, TRUST_AND_ALLOW);
      assert.match(question?.detail ?? '', /permissionDecision/, 'the question lists the hook');
      assert.equal(trust.requests, 1, "then VS Code's Workspace Trust");

      const after = await waitForChange(harness.service, (c) => c.applied.active.some((h) => isProjectSource(h.source)), 10_000, 'the project hook in force');
      assert.deepEqual(projectHooksState(after, true), { on: true, count: 1 });
      assert.equal(tourHeldText(projectHooksState(after, true)), undefined, 'the tour plays');
      await harness.service.idle();
      assert.equal(harness.approvalRequests.length, 1, 'no second question after the grant');
      assert.equal(notice.shown, undefined, 'the Restricted Mode notice is gone once the hooks are in force');
    } finally {
      restricted.dispose();
    }
  });

  test('Cancel approves nothing and does not open Workspace Trust; trusting later still asks about the hooks', async () => {
    let answer: 'cancel' | 'allow' = 'cancel';
    harness = createHarness({ trusted: false, trust, approve: () => answer });
    await harness.service.reload();
    assert.equal(await harness.service.trustAndApprove(), false);
    assert.equal(trust.requests, 0);

    // Trusted some other way (VS Code's own banner): the hooks were never allowed, so they are asked about.
    answer = 'allow';
    trust.isTrusted = true;
    harness.service.scheduleReload();
    await waitForChange(harness.service, (c) => c.applied.active.some((h) => isProjectSource(h.source)), 10_000, 'the hook allowed by the approval question');
    assert.equal(harness.approvalRequests.length, 2);
    assert.equal(harness.approvalRequests[1]?.allowLabel, undefined, 'the usual approval question');
  });

  test('a trusted folder whose hooks wait for approval: the tour says so instead of playing', async () => {
    trust.isTrusted = true;
    harness = createHarness({ trusted: true, trust, approve: () => 'cancel' });
    const change = await harness.service.reload();
    await harness.service.idle();
    const state = projectHooksState(change, true);
    assert.deepEqual(state, { on: false, why: 'unapproved', count: 1, files: ['.claude/settings.json'] });
    assert.match(tourHeldText(state) ?? '', /1 of them waits for your approval, so it is off\. Run "Hookwise: Review Project Hooks"/);
  });
});
