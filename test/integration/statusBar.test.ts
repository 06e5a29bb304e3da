/**
 * The Hookwise status bar item inside the real extension host: while a hook runs it says
 * what the agent waits for, using the handler's `statusMessage` when it has one.
 */
import * as assert from 'node:assert/strict';
import { AgentStatusBar } from '../../src/vscode/statusBar';
import { record } from '../support/hookRunFixtures';

suite('Status bar: running hooks', () => {
  let bar: AgentStatusBar;

  setup(() => {
    bar = new AgentStatusBar();
  });

  teardown(() => bar.dispose());

  test("shows the handler's statusMessage while its hook runs, then goes back", () => {
    const running = record({ runId: 'sm-1', statusMessage: 'Checking the command…' });
    bar.onHookStarted(running);
    assert.equal(bar.text, '$(loading~spin) Hookwise: Checking the command…');
    bar.onHookFinished({ ...running, status: 'ok' });
    assert.equal(bar.text, '$(hubot) Hookwise');
  });

  test('without a statusMessage it names the event; with two hooks the message wins and the other is counted', () => {
    bar.onHookStarted(record({ runId: 'plain' }));
    assert.equal(bar.text, '$(loading~spin) Hookwise: running PreToolUse hook');
    bar.onHookStarted(record({ runId: 'with-message', statusMessage: 'Scanning for secrets' }));
    assert.equal(bar.text, '$(loading~spin) Hookwise: Scanning for secrets (+1)');
  });

  test('hooks that start and end between two refreshes do not flash by: the bar goes straight to the state after them', async () => {
    // A question for the person shows at once; the bar was just redrawn, so what follows waits.
    bar.setWaitingForApproval(true);
    assert.equal(bar.shownText, '$(bell-dot) Hookwise: waiting for approval');
    bar.setWaitingForApproval(false);
    const runs = Array.from({ length: 5 }, (_, i) => record({ runId: `burst-${i}` }));
    for (const run of runs) bar.onHookStarted(run);
    for (const run of runs) bar.onHookFinished({ ...run, status: 'ok' });
    assert.equal(bar.text, '$(hubot) Hookwise');
    assert.equal(bar.shownText, '$(bell-dot) Hookwise: waiting for approval', 'nothing redrawn within the interval');
    const deadline = Date.now() + 10_000;
    const shown = (): string => bar.shownText;
    while (shown() !== '$(hubot) Hookwise' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(bar.shownText, '$(hubot) Hookwise');
  });
});
