import type { HookConfig } from '../hooks/config/hookConfigLoader';
import { createLeanLauncher } from '../shared/leanLauncher';
import type { ProcessLauncher } from '../shared/processLauncher';
import { startSpawnHelper, type SpawnHelper } from '../shared/spawnHelper';

/** The launcher the CLI's command hooks start on, and its end. */
export interface CliHookLauncher {
  /** Undefined: hooks spawn directly (the runtime's default lean launcher). */
  readonly launcher: ProcessLauncher | undefined;
  /** Ends the spawn helper, if one runs (idempotent). */
  close(): void;
}

/**
 * Starts the spawn helper, with warm shells, for the CLI's command hooks when `config` has
 * command hooks to run and `HOOKWISE_SPAWN_HELPER` is not `0` (`HOOKWISE_WARM_SHELLS=0` keeps the
 * helper and turns the warm shells off). Called as soon as the configuration is loaded, so the
 * helper's own start-up runs beside the rest of the CLI's and not on the first hook's path.
 * The helper never keeps the process alive; a dead or unstarted helper means a direct spawn.
 */
export function startCliHookLauncher(config: HookConfig, env: NodeJS.ProcessEnv): CliHookLauncher {
  // A session without command hooks pays nothing: the helper's start costs more than it saves there.
  const hasCommandHooks = config.hooks.some((hook) => hook.handler.type === 'command');
  if (!hasCommandHooks || env.HOOKWISE_SPAWN_HELPER === '0') return { launcher: undefined, close: () => undefined };
  // The CLI is a ~75 MiB process: its fork of each hook shell blocks its thread and grows with
  // its memory; the helper is small, and its warm shells take the fork off a hook's path.
  let helper: SpawnHelper | undefined = startSpawnHelper(process.execPath, { warmShells: env.HOOKWISE_WARM_SHELLS !== '0' });
  return {
    launcher: createLeanLauncher({ spawner: (file, args, options) => helper?.spawner(file, args, options) }),
    close: () => {
      helper?.close();
      helper = undefined;
    },
  };
}
