/**
 * OpenTelemetry export in the real extension host: the `hookwise.telemetry.*` user settings
 * start the export (the SDK loaded from dist/telemetry.js beside the extension bundle), a
 * prompt through the extension's own controller sends session → agent → tool spans to a real
 * OTLP/HTTP receiver, and turning the setting off stops it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HookwiseApi } from '../../src/extension';
import type { OtlpReceiver, ReceivedSpan } from '../support/otlpReceiver';
import { startOtlpReceiver } from '../support/otlpReceiver';

const EXTENSION_ID = 'hookwise.hookwise';
const KEYS = ['telemetry.enabled', 'telemetry.endpoint', 'telemetry.headers', 'telemetry.serviceName', 'model.provider', 'model.playgroundScript'];

async function until<T>(what: string, probe: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

suite('OpenTelemetry export (hookwise.telemetry.*)', () => {
  let api: HookwiseApi;
  let receiver: OtlpReceiver;
  let dir: string;

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<HookwiseApi>(EXTENSION_ID)!.activate();
    receiver = await startOtlpReceiver();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hookwise-otel-'));
    const script = path.join(dir, 'script.json');
    fs.writeFileSync(
      script,
      JSON.stringify({ turns: [{ text: 'Looking.', toolCalls: [{ id: 'call_read', name: 'Read', input: { file_path: 'README.md' } }] }, { text: 'Done.' }] }),
    );
    const c = vscode.workspace.getConfiguration('hookwise');
    await c.update('model.provider', 'playground', vscode.ConfigurationTarget.Global);
    await c.update('model.playgroundScript', script, vscode.ConfigurationTarget.Global);
    await api.controller.reloadModel();
  });

  suiteTeardown(async () => {
    const c = vscode.workspace.getConfiguration('hookwise');
    for (const key of KEYS) await c.update(key, undefined, vscode.ConfigurationTarget.Global);
    await api.controller.reloadModel();
    await api.telemetry.apply();
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a prompt sends its session, agent and tool spans with the service name and headers from the settings', async () => {
    const c = vscode.workspace.getConfiguration('hookwise');
    await c.update('telemetry.endpoint', receiver.url, vscode.ConfigurationTarget.Global);
    await c.update('telemetry.headers', { 'x-team': 'editor' }, vscode.ConfigurationTarget.Global);
    await c.update('telemetry.serviceName', 'hookwise-host-test', vscode.ConfigurationTarget.Global);
    await c.update('telemetry.enabled', true, vscode.ConfigurationTarget.Global);
    await api.telemetry.apply();

    await api.controller.newSession();
    assert.equal(await api.controller.submit('read the readme'), true);
    const sessionId = api.controller.sessions.current?.id;
    assert.ok(sessionId, 'no session after the prompt');
    await api.controller.newSession();

    const session = await until('the session span', () =>
      receiver.spans.find((s) => s.name === 'session' && s.attributes['hookwise.session.id'] === sessionId),
    );
    const inTrace = (s: ReceivedSpan): boolean => s.traceId === session.traceId;
    const agent = await until('the agent span', () => receiver.spans.find((s) => inTrace(s) && s.name === 'agent main'));
    const tool = await until('the tool span', () => receiver.spans.find((s) => inTrace(s) && s.name === 'tool Read'));
    assert.equal(session.resource['service.name'], 'hookwise-host-test');
    assert.equal(session.attributes['hookwise.session.end_reason'], 'clear');
    assert.equal(agent.parentSpanId, session.spanId);
    assert.equal(tool.parentSpanId, agent.spanId);
    assert.equal(tool.attributes['hookwise.tool_use_id'], 'call_read');
    assert.ok(receiver.requests.some((h) => h['x-team'] === 'editor'));
    assert.ok(!JSON.stringify(receiver.spans).includes('read the readme'), 'the prompt must not be exported');
  });

  test('turned off, a prompt sends nothing', async () => {
    await vscode.workspace.getConfiguration('hookwise').update('telemetry.enabled', false, vscode.ConfigurationTarget.Global);
    await api.telemetry.apply();
    const before = receiver.requests.length;

    await api.controller.newSession();
    assert.equal(await api.controller.submit('read it again'), true);
    await api.controller.newSession();
    await new Promise((resolve) => setTimeout(resolve, 500));

    assert.equal(receiver.requests.length, before);
  });
});
