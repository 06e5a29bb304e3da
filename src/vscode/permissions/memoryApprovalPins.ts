import type * as vscode from 'vscode';
import type { MemoryApprovalPins } from '../../agent/memory/memoryApproval';
import { mementoPins } from '../mementoPins';

/** workspaceState key of the memory files outside the project the user approved (string[] of pin keys). */
export const APPROVED_MEMORY_IMPORTS_KEY = 'hookwise.approvedMemoryImports';
/** Pins kept; the oldest go first (each is one file a person said yes to). */
const MAX_PINS = 500;

/**
 * Approved external memory files, per workspace (`context.workspaceState`): a yes in the modal
 * is asked once per file and kept here; a no is not kept, so the next session asks again.
 * Anything malformed in storage counts as nothing approved (mementoPins.ts).
 */
export function workspaceMemoryPins(state: vscode.Memento): MemoryApprovalPins {
  return mementoPins(state, APPROVED_MEMORY_IMPORTS_KEY, MAX_PINS);
}
