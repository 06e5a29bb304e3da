import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/agentEvents';
import { HookwiseRuntime } from '../../../src/agent/hookwiseRuntime';
import type { PermissionMode } from '../../../src/agent/permissionMode';
import { standardConfigSources } from '../../../src/hooks/config/configSources';
import { loadHookConfig } from '../../../src/hooks/config/hookConfigLoader';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { startOpenAiTestServer, textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliWorkspace } from '../cli/cliHarness';
import { makeCliWorkspace } from '../cli/cliHarness';

// Issue 12 §1: in an untrusted workspace nothing the project wrote may widen permissions —
// not `permissions.defaultMode`, not `permissions.allow`. The same runtime the extension
// builds, a real OpenAI-compatible server as the model, real Bash/Write tools on disk.

let w: CliWorkspace;
let server: OpenAiTestServer | undefined;
beforeEach(async () => {
  w = await makeCliWorkspace();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await w.cleanup();
});

/** Runs one prompt whose model calls `tool` once; returns the tool card's final status. */
async function runOneCall(options: { trusted: boolean; requested?: PermissionMode; tool: string; args: Record<string, unknown> }): Promise<{ status: string | undefined; mode: PermissionMode }> {
  server = await startOpenAiTestServer({ script: [toolCallsReply([{ id: 'c1', name: options.tool, arguments: options.args }]), textReply('done')] });
  const runtime = new HookwiseRuntime({
    projectDir: w.ws,
    homeDir: w.home,
    model: new OpenAiModelClient({ model: 'test-model', baseURL: server.url, apiKey: 'k', maxRetries: 0 }),
    transcriptDir: path.join(w.hookwiseHome, 'projects', 'ws'),
    askFallback: 'deny',
  });
  const config = await loadHookConfig(standardConfigSources({ homeDir: w.home, folders: [{ root: w.ws }] }));
  runtime.applyConfig(config, { trusted: options.trusted });
  const events: AgentEvent[] = [];
  const session = runtime.createSession({ permissionMode: options.requested ?? 'default', trusted: options.trusted, emit: (e) => events.push(e) });
  await session.start('startup', new AbortController().signal);
  await session.submit('go', new AbortController().signal);
  await session.end('other');
  const last = events.filter((e) => e.type === 'toolStatus').at(-1);
  return { status: last?.type === 'toolStatus' ? last.status : undefined, mode: (runtime as unknown as { startingMode: (a: string, b: boolean) => PermissionMode }).startingMode?.(options.requested ?? 'default', options.trusted) };
}

describe('an untrusted workspace cannot widen permissions from its own files', () => {
  for (const mode of ['bypassPermissions', 'acceptEdits'] as const) {
    it(`project defaultMode ${mode}: ignored untrusted (the call asks, nobody answers, denied), honoured trusted`, async () => {
      await w.settings({ permissions: { defaultMode: mode } });
      const call = mode === 'bypassPermissions' ? { tool: 'Bash', args: { command: 'touch PWN' } } : { tool: 'Write', args: { file_path: path.join(w.ws, 'PWN'), content: 'x' } };

      const untrusted = await runOneCall({ trusted: false, ...call });
      expect(untrusted.mode).toBe('default');
      expect(untrusted.status).toBe('denied');
      expect(existsSync(path.join(w.ws, 'PWN'))).toBe(false);

      const trusted = await runOneCall({ trusted: true, ...call });
      expect(trusted.mode).toBe(mode);
      expect(trusted.status).toBe('done');
      expect(existsSync(path.join(w.ws, 'PWN'))).toBe(true);
    });
  }

  it('.claude/settings.local.json defaultMode and allow rules are the project\'s too', async () => {
    await w.write('.claude/settings.local.json', JSON.stringify({ permissions: { defaultMode: 'bypassPermissions', allow: ['Bash(touch:*)', 'Bash'] } }));
    const untrusted = await runOneCall({ trusted: false, tool: 'Bash', args: { command: 'touch PWN' } });
    expect(untrusted.status).toBe('denied');
    expect(existsSync(path.join(w.ws, 'PWN'))).toBe(false);
  });

  it('the project\'s deny rules still apply untrusted: they only narrow', async () => {
    await w.settings({ permissions: { deny: ['Write(notes.txt)'] } });
    const denied = await runOneCall({ trusted: false, requested: 'bypassPermissions', tool: 'Write', args: { file_path: path.join(w.ws, 'notes.txt'), content: 'x' } });
    expect(denied.status).toBe('denied');
    expect(existsSync(path.join(w.ws, 'notes.txt'))).toBe(false);
  });

  it('a mode the user chose explicitly still applies, and the user\'s own defaultMode applies untrusted', async () => {
    expect((await runOneCall({ trusted: false, requested: 'plan', tool: 'Bash', args: { command: 'true' } })).mode).toBe('plan');
    await w.write('../home/.claude/settings.json', JSON.stringify({ permissions: { defaultMode: 'acceptEdits' } }));
    const user = await runOneCall({ trusted: false, tool: 'Write', args: { file_path: path.join(w.ws, 'ok.txt'), content: 'x' } });
    expect(user.mode).toBe('acceptEdits');
    expect(user.status).toBe('done');
  });
});
