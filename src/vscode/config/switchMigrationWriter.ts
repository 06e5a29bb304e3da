import * as vscode from 'vscode';
import type { SwitchMigration } from '../../hooks/config/hookSwitchMigration';
import { thrownMessage } from '../../shared/describeThrown';

const SETTING = 'hookwise.hooks.disabled';

/**
 * Rewrites old position ids in `hookwise.hooks.disabled` to the identity ids the loader resolved
 * them to (hookSwitchMigration.ts), in the layer that holds each: user settings for the user
 * level, the workspace and folder settings for the workspace level. Written at once, so a hook
 * inserted later cannot move the switch to another hook; each rewrite is logged. Returns how many
 * ids were rewritten; a failed write is logged and tried again on the next load.
 */
export async function writeSwitchMigrations(migrations: readonly SwitchMigration[], log: vscode.LogOutputChannel): Promise<number> {
  if (migrations.length === 0) return 0;
  const root = vscode.workspace.getConfiguration();
  const inspected = root.inspect<unknown[]>(SETTING);
  const { Global, Workspace, WorkspaceFolder } = vscode.ConfigurationTarget;
  const folders = vscode.workspace.workspaceFolders ?? [];
  type Layer = { config: vscode.WorkspaceConfiguration; target: vscode.ConfigurationTarget; value: unknown; layer: SwitchMigration['layer']; label: string };
  const layers: Layer[] = [
    { config: root, target: Global, value: inspected?.globalValue, layer: 'user', label: 'user settings' },
    ...(folders.length > 0
      ? [{ config: root, target: Workspace, value: inspected?.workspaceValue, layer: 'workspace' as const, label: 'workspace settings' }]
      : []),
    // Folder settings are their own layer only in a multi-root workspace (in a single folder they are the workspace settings).
    ...(vscode.workspace.workspaceFile !== undefined
      ? folders.map((f): Layer => {
          const config = vscode.workspace.getConfiguration(undefined, f.uri);
          return {
            config,
            target: WorkspaceFolder,
            value: config.inspect<unknown[]>(SETTING)?.workspaceFolderValue,
            layer: 'workspace',
            label: `folder settings of ${f.name}`,
          };
        })
      : []),
  ];
  let rewritten = 0;
  for (const { config, target, value, layer, label } of layers) {
    if (!Array.isArray(value)) continue;
    const map = new Map(migrations.filter((m) => m.layer === layer).map((m) => [m.from, m.to]));
    if (!value.some((v) => typeof v === 'string' && map.has(v.trim()))) continue;
    const next = [...new Set(value.map((v) => (typeof v === 'string' ? (map.get(v.trim()) ?? v) : v)))];
    try {
      await config.update(SETTING, next, target);
    } catch (error) {
      log.warn(`${SETTING} in ${label}: could not rewrite position ids to hook ids (${thrownMessage(error)}); trying again on the next load`);
      continue;
    }
    for (const v of value)
      if (typeof v === 'string' && map.has(v.trim())) {
        rewritten++;
        log.info(`${SETTING} in ${label}: switch "${v}" (a position) now names its hook: "${map.get(v.trim()) ?? ''}"`);
      }
  }
  return rewritten;
}
