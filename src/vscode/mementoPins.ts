import type * as vscode from 'vscode';

/** A set of approval keys kept in a Memento: what a person said yes to, asked once per key. */
export interface MementoPins {
  has(key: string): boolean;
  /** Keeps `key` (moved to the newest place); the oldest keys go first beyond the cap. */
  add(key: string): Promise<void>;
}

/**
 * The approval keys under `storageKey` in `state` (globalState or workspaceState), at most `max`
 * of them. Storage is read afresh on each call, so two windows see each other's answers; anything
 * malformed there (not an array, non-string entries) counts as nothing approved, never as an error.
 */
export function mementoPins(state: vscode.Memento, storageKey: string, max: number): MementoPins {
  const read = (): string[] => {
    const value = state.get<unknown>(storageKey);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  };
  return {
    has: (key) => read().includes(key),
    add: async (key) => {
      await state.update(storageKey, [...read().filter((k) => k !== key), key].slice(-max));
    },
  };
}
