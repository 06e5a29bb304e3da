import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/permissions/permissionMode';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { useRuntimeEnv } from './runtimeHarness';

// In an untrusted workspace nothing the project wrote may widen permissions —
// not `permissions.defaultMode`, not `permissions.allow`. The same runtime the extension
// builds, a real OpenAI-compatible server as the model, real Bash/Write tools on disk.

const env = useRuntimeEnv();

/** Runs one prompt whose model calls `tool` once; returns the tool card's final status and the session's mode. */
async function runOneCall(options: {
  trusted: boolean;
  requested?: PermissionMode;
  tool: string;
  args: Record<string, unknown>;
}): Promise<{ status: string | undefined; mode: PermissionMode }> {
  const run = await env.runPrompt({
    script: [toolCallsReply([{ id: 'c1', name: options.tool, arguments: options.args }]), textReply('done')],
    trusted: options.trusted,
    mode: options.requested ?? 'default',
  });
  return { status: run.toolStatus.get('c1'), mode: run.runtime.startingMode(options.requested ?? 'default', options.trusted) };
}

describe('an untrusted workspace cannot widen permissions from its own files', () => {
  for (const mode of ['bypassPermissions', 'acceptEdits'] as const) {
    it(`project defaultMode ${mode}: ignored untrusted (the call asks, nobody answers, denied), honoured trusted`, async () => {
      await env.w.settings({ permissions: { defaultMode: mode } });
      const call =
        mode === 'bypassPermissions'
          ? { tool: 'Bash', args: { command: 'touch PWN' } }
          : { tool: 'Write', args: { file_path: path.join(env.w.ws, 'PWN'), content: 'x' } };

      const untrusted = await runOneCall({ trusted: false, ...call });
      expect(untrusted.mode).toBe('default');
      expect(untrusted.status).toBe('denied');
      expect(existsSync(path.join(env.w.ws, 'PWN'))).toBe(false);

      const trusted = await runOneCall({ trusted: true, ...call });
      expect(trusted.mode).toBe(mode);
      expect(trusted.status).toBe('done');
      expect(existsSync(path.join(env.w.ws, 'PWN'))).toBe(true);
    });
  }

  it(".claude/settings.local.json defaultMode and allow rules are the project's too", async () => {
    await env.w.write('.claude/settings.local.json', JSON.stringify({ permissions: { defaultMode: 'bypassPermissions', allow: ['Bash(touch:*)', 'Bash'] } }));
    const untrusted = await runOneCall({ trusted: false, tool: 'Bash', args: { command: 'touch PWN' } });
    expect(untrusted.status).toBe('denied');
    expect(existsSync(path.join(env.w.ws, 'PWN'))).toBe(false);
  });

  it("the project's deny rules still apply untrusted: they only narrow", async () => {
    await env.w.settings({ permissions: { deny: ['Write(notes.txt)'] } });
    const denied = await runOneCall({
      trusted: false,
      requested: 'bypassPermissions',
      tool: 'Write',
      args: { file_path: path.join(env.w.ws, 'notes.txt'), content: 'x' },
    });
    expect(denied.status).toBe('denied');
    expect(existsSync(path.join(env.w.ws, 'notes.txt'))).toBe(false);
  });

  it("a mode the user chose explicitly still applies, and the user's own defaultMode applies untrusted (yet every call still asks: Restricted Mode)", async () => {
    expect((await runOneCall({ trusted: false, requested: 'plan', tool: 'Bash', args: { command: 'true' } })).mode).toBe('plan');
    await env.w.write('../home/.claude/settings.json', JSON.stringify({ permissions: { defaultMode: 'acceptEdits' } }));
    const user = await runOneCall({ trusted: false, tool: 'Write', args: { file_path: path.join(env.w.ws, 'ok.txt'), content: 'x' } });
    expect(user.mode).toBe('acceptEdits');
    // Nobody answers here, so the Restricted Mode ask is denied (restrictedMode.test.ts has the person).
    expect(user.status).toBe('denied');
  });
});
