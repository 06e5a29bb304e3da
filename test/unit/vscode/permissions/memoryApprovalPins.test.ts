import type * as vscode from 'vscode';
import { expect, it } from 'vitest';
import { memoryPinKey } from '../../../../src/agent/memory/memoryApproval';
import { APPROVED_MEMORY_IMPORTS_KEY, workspaceMemoryPins } from '../../../../src/vscode/permissions/memoryApprovalPins';

/** An in-memory Memento (workspaceState's interface; the host's own is exercised by the integration tests). */
function memento(initial: Record<string, unknown> = {}): vscode.Memento {
  const data = new Map(Object.entries(initial));
  return {
    keys: () => [...data.keys()],
    get: <T>(key: string, fallback?: T) => (data.has(key) ? (data.get(key) as T) : fallback),
    update: (key: string, value: unknown) => (data.set(key, value), Promise.resolve()),
  } as vscode.Memento;
}

it('a yes is kept per workspace, for exactly that file under that project; malformed storage approves nothing', async () => {
  const state = memento();
  const pins = workspaceMemoryPins(state);
  const key = memoryPinKey({ boundary: '/ws', file: '/home/u/notes.md' });
  expect(pins.has(key)).toBe(false);
  await pins.add(key);
  expect(workspaceMemoryPins(state).has(key)).toBe(true);
  expect(pins.has(memoryPinKey({ boundary: '/other', file: '/home/u/notes.md' }))).toBe(false);
  expect(pins.has(memoryPinKey({ boundary: '/ws', file: '/home/u/.ssh/id_rsa' }))).toBe(false);
  expect(workspaceMemoryPins(memento({ [APPROVED_MEMORY_IMPORTS_KEY]: { [key]: true } })).has(key)).toBe(false);
});
