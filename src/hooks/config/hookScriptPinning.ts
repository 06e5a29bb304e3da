import path from 'node:path';
import { isProjectSource } from '../../configFiles/hookSource';
import { hookApprovalKey } from './hookApproval';
import type { LoadedHook } from './loadedHook';
import { pinScripts } from './scriptPins';

/**
 * A command hook with the workspace files its command runs pinned (scriptPins.ts): into its
 * approval key for a project hook (docs/security.md); for any other hook only so that they are
 * protected from the agent (a user's policy hook running `bash guard` must not be rewritten
 * mid-session), its key unchanged. Done here, at load, so no hook event pays for file I/O.
 */
export async function withPinnedScripts(hook: LoadedHook, projectDirs: readonly string[]): Promise<LoadedHook> {
  if (hook.handler.type !== 'command') return hook;
  const { command, args } = hook.handler;
  const roots = hook.folder !== undefined ? [hook.folder] : projectDirs;
  const perRoot = await Promise.all(
    roots.map(async (root) =>
      (await pinScripts(command, root, args)).map((pin) => (roots.length > 1 ? { ...pin, path: `${path.basename(root)}/${pin.path}` } : pin)),
    ),
  );
  const scripts = perRoot.flat();
  if (scripts.length === 0) return hook;
  return isProjectSource(hook.source) ? { ...hook, scripts, hash: hookApprovalKey({ ...hook, scripts }) } : { ...hook, scripts };
}
