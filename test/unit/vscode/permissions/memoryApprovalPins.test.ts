import { expect, it } from 'vitest';
import { memoryPinKey } from '../../../../src/agent/memory/memoryApproval';
import { APPROVED_MEMORY_IMPORTS_KEY, workspaceMemoryPins } from '../../../../src/vscode/permissions/memoryApprovalPins';
import { MemoryMemento } from '../../../support/memoryMemento';

it('a yes is kept per workspace, for exactly that file under that project; malformed storage approves nothing', async () => {
  const state = new MemoryMemento();
  const pins = workspaceMemoryPins(state);
  const key = memoryPinKey({ boundary: '/ws', file: '/home/u/notes.md' });
  expect(pins.has(key)).toBe(false);
  await pins.add(key);
  expect(workspaceMemoryPins(state).has(key)).toBe(true);
  expect(pins.has(memoryPinKey({ boundary: '/other', file: '/home/u/notes.md' }))).toBe(false);
  expect(pins.has(memoryPinKey({ boundary: '/ws', file: '/home/u/.ssh/id_rsa' }))).toBe(false);
  expect(workspaceMemoryPins(new MemoryMemento({ [APPROVED_MEMORY_IMPORTS_KEY]: { [key]: true } })).has(key)).toBe(false);
});
