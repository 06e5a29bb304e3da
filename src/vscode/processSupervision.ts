import type * as vscode from 'vscode';
import type { ProcessGroupWatchdog } from '../shared/processGroupWatchdog';
import { startProcessGroupWatchdog } from '../shared/processGroupWatchdog';
import { createLeanLauncher } from '../shared/leanLauncher';
import type { ProcessLauncher } from '../shared/processLauncher';
import type { SpawnHelper } from '../shared/spawnHelper';
import { startSpawnHelper } from '../shared/spawnHelper';

/** What {@link startProcessSupervision} gives the extension: the launcher of command hooks, and its end. */
export interface ProcessSupervision extends vscode.Disposable {
  /** The lean launcher hooks start on: through the spawn helper once it runs, directly before and after. */
  readonly hookLauncher: ProcessLauncher;
}

/**
 * Starts, after activation returns, what guards the processes hooks and Bash start: the
 * watchdog that kills their process groups with this extension host even when it is killed
 * without running its exit hook (a crash, a force-quit window), and the spawn helper that
 * command hooks are forked by. Disposing stops both.
 */
export function startProcessSupervision(): ProcessSupervision {
  let watchdog: ProcessGroupWatchdog | undefined;
  // Shells are forked by a small helper process: forking this big host blocks its thread ~3× longer
  // (bench/host measures both). HOOKWISE_SPAWN_HELPER=0 spawns directly, as does a dead or unstarted helper.
  let spawnHelper: SpawnHelper | undefined;
  const hookLauncher = createLeanLauncher({ spawner: (file, args, options) => spawnHelper?.spawner(file, args, options) });
  const watchdogTimer = setTimeout(() => {
    watchdog = startProcessGroupWatchdog();
    if (process.env.HOOKWISE_SPAWN_HELPER !== '0') spawnHelper = startSpawnHelper();
  }, 0);
  return {
    hookLauncher,
    dispose: () => {
      clearTimeout(watchdogTimer);
      spawnHelper?.close();
      spawnHelper = undefined;
      watchdog?.close();
    },
  };
}
