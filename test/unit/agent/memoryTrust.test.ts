import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { MemoryApprovalPins } from '../../../src/agent/memory/memoryApproval';
import type { PermissionProvider, PermissionRequest } from '../../../src/hooks/hookRunTypes';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply } from '../../support/openAiTestServer';
import { useRuntimeEnv } from './runtimeHarness';

// The runtime as the extension builds it (the modal is the PermissionProvider port, the pins its
// workspaceState): in Restricted Mode project memory never reads outside the project, and no one
// is asked; in a trusted workspace a file outside is asked about once, and a yes is pinned.

const env = useRuntimeEnv();
const SECRET = 'OUTSIDE-MEMORY-4b2d';

/** A provider that answers `decision` and records what it was asked (the modal's port). */
function answering(decision: 'allow' | 'deny'): PermissionProvider & { asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  return { asked, requestPermission: (request) => (asked.push(request), Promise.resolve({ decision, decidedBy: 'user' })) };
}

async function hostileMemory(): Promise<void> {
  const { w } = env;
  const outside = path.join(w.base, 'outside');
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'import.md'), `${SECRET}-import`);
  await writeFile(path.join(outside, 'local.md'), `${SECRET}-local`);
  await w.write('CLAUDE.md', 'Project rules. @../outside/import.md');
  await symlink(path.join(outside, 'local.md'), path.join(w.ws, 'CLAUDE.local.md'));
}

const sent = (s: OpenAiTestServer): string => JSON.stringify(s.requests.map((r) => r.body));

it('Restricted Mode: an import and a link out of the project are never loaded, and no one is asked, even with a provider that would allow', async () => {
  await hostileMemory();
  const provider = answering('allow');
  const { server, events } = await env.runPrompt({ script: [textReply('ok')], trusted: false, permissionProvider: provider });
  expect(sent(server)).not.toContain(SECRET);
  expect(sent(server)).toContain('Project rules.');
  expect(provider.asked).toEqual([]);
  const said = events.flatMap((e) => (e.type === 'systemMessage' && e.source === 'memory' ? [e.text] : []));
  expect(said.some((t) => t.includes('import @../outside/import.md') && t.includes('not loaded in Restricted Mode'))).toBe(true);
  expect(said.some((t) => t.includes(`${path.join(env.w.ws, 'CLAUDE.local.md')} (`) && t.includes('not loaded in Restricted Mode'))).toBe(true);
});

it('trusted: each file outside is asked about once through the provider; a yes is pinned and the next session does not ask', async () => {
  await hostileMemory();
  const kept = new Set<string>();
  const pins: MemoryApprovalPins = { has: (k) => kept.has(k), add: (k) => void kept.add(k) };
  const first = answering('allow');
  const one = await env.runPrompt({ script: [textReply('ok')], trusted: true, permissionProvider: first, memoryApprovals: pins });
  expect(first.asked.map((r) => r.toolInput?.file_path)).toEqual([path.join(env.w.base, 'outside', 'import.md'), path.join(env.w.base, 'outside', 'local.md')]);
  expect(first.asked[0]?.reason).toContain(`${path.join(env.w.ws, 'CLAUDE.md')} imports @../outside/import.md`);
  expect(sent(one.server)).toContain(`${SECRET}-import`);
  expect(sent(one.server)).toContain(`${SECRET}-local`);
  const second = answering('deny');
  const two = await env.runPrompt({ script: [textReply('ok')], trusted: true, permissionProvider: second, memoryApprovals: pins });
  expect(second.asked).toEqual([]);
  expect(sent(two.server)).toContain(`${SECRET}-import`);
});

it('trusted: a "no" keeps the file out and pins nothing', async () => {
  await hostileMemory();
  const kept = new Set<string>();
  const provider = answering('deny');
  const { server } = await env.runPrompt({
    script: [textReply('ok')],
    trusted: true,
    permissionProvider: provider,
    memoryApprovals: { has: (k) => kept.has(k), add: (k) => void kept.add(k) },
  });
  expect(provider.asked).toHaveLength(2);
  expect(sent(server)).not.toContain(SECRET);
  expect(kept.size).toBe(0);
});
