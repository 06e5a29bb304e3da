import path from 'node:path';
import { isProjectSource } from '../hookSource';
import { hookApprovalKey } from './hookApproval';
import type { LoadedHook } from './loadedHook';
import { pinScripts } from './scriptPins';

/**
 * A project command hook with the workspace scripts its command names pinned into its
 * approval key (docs/security.md). Done here, at load, so no hook event pays for file I/O.
 */
export async function withPinnedScripts(hook: LoadedHook, projectDirs: readonly string[]): Promise<LoadedHook> {
  if (!isProjectSource(hook.source) || hook.handler.type !== 'command') return hook;
  const { command, args } = hook.handler;
  const roots = hook.folder !== undefined ? [hook.folder] : projectDirs;
  const perRoot = await Promise.all(
    roots.map(async (root) =>
      (await pinScripts(command, root, args)).map((pin) => (roots.length > 1 ? { ...pin, path: `${path.basename(root)}/${pin.path}` } : pin)),
    ),
  );
  const scripts = perRoot.flat();
  if (scripts.length === 0) return hook;
  return { ...hook, scripts, hash: hookApprovalKey({ ...hook, scripts }) };
}
