import type * as vscode from 'vscode';
import { raceAbort } from '../shared/raceAbort';

/** How long a prompt waits for the first config load before running anyway (it is logged). */
const CONFIG_READY_TIMEOUT_MS = 10_000;

/**
 * Waits until the first hook configuration is applied, so no prompt runs before the hooks
 * are in place — at most 10 s, after which the prompt runs with what is registered and the
 * log says so.
 */
export async function waitForConfig(ready: Promise<unknown> | undefined, log: vscode.LogOutputChannel): Promise<void> {
  if (!ready) return;
  const loaded = await raceAbort(ready, AbortSignal.timeout(CONFIG_READY_TIMEOUT_MS)).then(
    () => true,
    () => false,
  );
  if (!loaded) log.warn('the hook configuration had not loaded after 10 s; running with what is registered');
}
