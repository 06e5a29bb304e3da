// @ts-check
/**
 * E2E: an MCP server's tool in the chat, as a Claude Code user has it — a server in the user's
 * `hookwise.mcp.servers` (the real fixture server built with the MCP SDK), a user-level
 * PreToolUse hook with matcher `mcp__fixture__.*` that asks, the modal naming the server and the
 * tool, Allow, and the server's answer on the card. The user settings are restored afterwards.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'mocha';
import { chatFrame, sendPrompt, waitForAssistantText, waitForIdle } from './chatHarness.mjs';
import { clickDialogButton, e2e, screenshot, waitForDialog } from './harness.mjs';
import { startScenario, userSettingsForSuite } from './workbenchHarness.mjs';

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mcp', 'server.mjs');
const ASK = `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"MCP calls need a person"}}'`;

describe('MCP: a server tool through hooks and the approval modal', function () {
  const patchSettings = userSettingsForSuite();

  it('the model calls mcp__fixture__echo, a PreToolUse mcp__ hook asks, Allow runs it and the card shows the answer', async function () {
    await patchSettings({
      'hookwise.mcp.servers': { fixture: { command: process.execPath, args: [SERVER] } },
      'hookwise.hooks': { PreToolUse: [{ matcher: 'mcp__fixture__.*', hooks: [{ type: 'command', command: ASK }] }] },
    });
    await startScenario({
      name: 'e2e: MCP tool',
      turns: [
        { text: 'Asking the fixture server.', toolCalls: [{ name: 'mcp__fixture__echo', input: { text: 'from e2e' } }] },
        { text: 'The server answered.' },
      ],
    });
    // The settings are in force before the prompt: the MCP Servers view lists the server.
    const { page } = e2e();
    const mcp = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'MCP Servers' }) });
    const header = mcp.locator('.pane-header').first();
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await mcp.locator('.monaco-list-row', { hasText: 'fixture' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await sendPrompt('Use the echo tool');

    const shown = await waitForDialog('Allow tool echo of MCP server fixture');
    assert.match(shown.detail, /MCP calls need a person/);
    assert.match(shown.detail, /user settings › hookwise\.hooks\.PreToolUse\[0\]\.hooks\[0\]/);
    console.log(`      screenshot: ${await screenshot('e2e-mcp-1-modal')}`);
    await clickDialogButton(shown.box, 'Allow');

    const card = chatFrame().locator('section.tool-card[aria-label^="Tool call mcp__fixture__echo"][data-status="done"]');
    await card.waitFor({ state: 'visible', timeout: 30_000 });
    const text = (await card.textContent()) ?? '';
    assert.match(text, /echo: from e2e/, `the card shows the server's answer:\n${text}`);
    await waitForAssistantText('The server answered.');
    await waitForIdle();
    console.log(`      screenshot: ${await screenshot('e2e-mcp-2-done')}`);
  });
});
