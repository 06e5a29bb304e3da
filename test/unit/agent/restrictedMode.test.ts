import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/permissions/permissionMode';
import { allow } from '../../../src/hooks/hookOutcome';
import type { PermissionAnswer } from '../../../src/hooks/hookRunTypes';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { RecordingProvider } from './agentHarness';
import { useRuntimeEnv } from './runtimeHarness';

// The extension's trust description says that in an untrusted workspace Hookwise
// "runs no tool without asking". Restricted Mode: every tool call asks a person — whatever the
// user's mode, allow rules or hooks allow — and says why; only a deny skips the question. The
// runtime the extension builds, a real model server, real tools on disk.

const env = useRuntimeEnv();

async function oneCall(o: {
  trusted: boolean;
  mode?: PermissionMode;
  tool: string;
  args: Record<string, unknown>;
  answer?: PermissionAnswer;
  setup?: Parameters<typeof env.runPrompt>[0]['setup'];
}): Promise<{ status: string | undefined; provider: RecordingProvider; result: string }> {
  const provider = new RecordingProvider(() => o.answer ?? { decision: 'deny', reason: 'no' });
  const run = await env.runPrompt({
    script: [toolCallsReply([{ id: 'c1', name: o.tool, arguments: o.args }]), textReply('done')],
    trusted: o.trusted,
    mode: o.mode ?? 'default',
    permissionProvider: provider,
    ...(o.setup ? { setup: o.setup } : {}),
  });
  const messages = run.server.requests[1]?.body.messages ?? [];
  const result = String(messages.find((m) => m.role === 'tool')?.content ?? '');
  return { status: run.toolStatus.get('c1'), provider, result };
}

const touch = { tool: 'Bash', args: { command: 'touch PWN' } };

describe('Restricted Mode: in an untrusted workspace every tool call asks', () => {
  for (const mode of ['bypassPermissions', 'acceptEdits', 'default'] as const) {
    it(`the user's ${mode} mode with a user allow rule does not skip the ask; the popup says Restricted Mode and offers no rule`, async () => {
      await env.w.write('../home/.claude/settings.json', JSON.stringify({ permissions: { allow: ['Bash(touch:*)', 'Write', 'Read'] } }));
      const write = { tool: 'Write', args: { file_path: path.join(env.w.ws, 'PWN'), content: 'x' } };
      for (const call of [touch, write]) {
        const denied = await oneCall({ trusted: false, mode, ...call });
        expect(denied.status).toBe('denied');
        expect(existsSync(path.join(env.w.ws, 'PWN'))).toBe(false);
        expect(denied.provider.requests).toHaveLength(1);
        expect(denied.provider.requests[0]).toMatchObject({
          toolName: call.tool,
          kind: 'rule',
          reason: expect.stringMatching(/^Restricted Mode: this workspace is not trusted/),
        });
        expect(denied.provider.requests[0]?.suggestedRule).toBeUndefined();
      }
      const allowed = await oneCall({ trusted: false, mode, ...touch, answer: { decision: 'allow' } });
      expect(allowed.status).toBe('done');
      expect(existsSync(path.join(env.w.ws, 'PWN'))).toBe(true);
    });
  }

  it('a read-only tool asks too (Read of a workspace file); trusted, it does not', async () => {
    await env.w.write('notes.txt', 'secret-notes');
    const read = { tool: 'Read', args: { file_path: path.join(env.w.ws, 'notes.txt') } };
    const untrusted = await oneCall({ trusted: false, ...read });
    expect(untrusted.provider.requests).toHaveLength(1);
    expect(untrusted.result).not.toContain('secret-notes');
    const trusted = await oneCall({ trusted: true, ...read });
    expect(trusted.provider.requests).toHaveLength(0);
    expect(trusted.result).toContain('secret-notes');
  });

  it("a user PreToolUse hook's allow and a user PermissionRequest hook's allow do not skip the ask", async () => {
    await env.w.write(
      '../home/.claude/settings.json',
      JSON.stringify({
        hooks: {
          PermissionRequest: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: `printf '%s' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'` },
              ],
            },
          ],
        },
      }),
    );
    const hooked = await oneCall({
      trusted: false,
      mode: 'bypassPermissions',
      ...touch,
      setup: (runtime) => runtime.hooks.onPreToolUse(() => allow('fine by me')),
    });
    expect(hooked.provider.requests).toHaveLength(1);
    expect(hooked.status).toBe('denied');
    expect(existsSync(path.join(env.w.ws, 'PWN'))).toBe(false);
  });

  it("a deny rule still denies without asking; trusted, the user's bypassPermissions runs without asking", async () => {
    await env.w.write('../home/.claude/settings.json', JSON.stringify({ permissions: { deny: ['Bash(touch:*)'] } }));
    const denied = await oneCall({ trusted: false, mode: 'bypassPermissions', ...touch, answer: { decision: 'allow' } });
    expect(denied.provider.requests).toHaveLength(0);
    expect(denied.status).toBe('denied');
    await env.w.write('../home/.claude/settings.json', '{}');
    const trusted = await oneCall({ trusted: true, mode: 'bypassPermissions', ...touch });
    expect(trusted.provider.requests).toHaveLength(0);
    expect(trusted.status).toBe('done');
  });
});
