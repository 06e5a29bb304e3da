import type * as vscode from 'vscode';
import type { ProcessGroupWatchdog } from '../shared/processGroupWatchdog';
import { startProcessGroupWatchdog } from '../shared/processGroupWatchdog';
import { setProcessSpawner } from '../shared/processRunner';
import type { SpawnHelper } from '../shared/spawnHelper';
import { startSpawnHelper } from '../shared/spawnHelper';

/**
 * Starts, after activation returns, what guards the processes hooks and Bash start: the
 * watchdog that kills their process groups with this extension host even when it is killed
 * without running its exit hook (a crash, a force-quit window), and the spawn helper. The
 * returned disposable stops both.
 */
export function startProcessSupervision(): vscode.Disposable {
  let watchdog: ProcessGroupWatchdog | undefined;
  // Shells are forked by a small helper process: forking this big host blocks its thread ~3× longer
  // (bench/host measures both). HOOKWISE_SPAWN_HELPER=0 spawns directly, as does a dead helper.
  let spawnHelper: SpawnHelper | undefined;
  const watchdogTimer = setTimeout(() => {
    watchdog = startProcessGroupWatchdog();
    if (process.env.HOOKWISE_SPAWN_HELPER !== '0') spawnHelper = startSpawnHelper();
    if (spawnHelper) setProcessSpawner(spawnHelper.spawner);
  }, 0);
  return {
    dispose: () => {
      clearTimeout(watchdogTimer);
      setProcessSpawner(undefined);
      spawnHelper?.close();
      watchdog?.close();
    },
  };
}
