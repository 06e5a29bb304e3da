import path from 'node:path';
import type { ConfigSourceInput } from '../hooks/config/configSources';
import { folderContains } from '../hooks/config/loadedHook';
import type { PluginProblem } from './pluginLoader';

/** What is needed of an installed VS Code extension (a `vscode.Extension`, kept free of the vscode module). */
export interface ExtensionLike {
  readonly id: string;
  readonly extensionPath: string;
  readonly packageJSON: unknown;
}

/**
 * Hooks VS Code extensions ship: `"contributes": {"hookwise": {"hooks": "./hooks/hooks.json"}}` in
 * their package.json, a file of the plugin `hooks.json` shape. Each becomes a plugin-like hook
 * source labelled with the extension id (`extension <id> › hooks/hooks.json › …`), with
 * `${CLAUDE_PLUGIN_ROOT}` = the extension's folder. An installed extension already runs code
 * in the host, so its hooks are user-trusted (no approval). The path must stay inside the
 * extension. `dataRoot` holds one data directory per extension (`${CLAUDE_PLUGIN_DATA}`).
 */
export function extensionHookSources(extensions: readonly ExtensionLike[], dataRoot: string): { inputs: ConfigSourceInput[]; problems: PluginProblem[] } {
  const inputs: ConfigSourceInput[] = [];
  const problems: PluginProblem[] = [];
  for (const ext of extensions) {
    const contributes = (ext.packageJSON as { contributes?: { hookwise?: unknown } } | undefined)?.contributes;
    const hookwise = contributes?.hookwise;
    if (hookwise === undefined) continue;
    const manifest = path.join(ext.extensionPath, 'package.json');
    const hooks = typeof hookwise === 'object' && hookwise !== null ? (hookwise as { hooks?: unknown }).hooks : undefined;
    if (typeof hooks !== 'string') {
      problems.push({
        file: manifest,
        jsonPath: 'contributes.hookwise.hooks',
        message: 'must be a path like "./hooks/hooks.json"; the extension contributes no hooks',
      });
      continue;
    }
    const file = path.resolve(ext.extensionPath, hooks);
    if (!folderContains(ext.extensionPath, file)) {
      problems.push({ file: manifest, jsonPath: 'contributes.hookwise.hooks', message: `"${hooks}" is outside the extension; it is ignored` });
      continue;
    }
    inputs.push({
      kind: 'pluginHooksFile',
      file,
      displayFile: `extension ${ext.id} › ${path.relative(ext.extensionPath, file).split(path.sep).join('/')}`,
      plugin: { name: ext.id, root: ext.extensionPath, dataDir: path.join(dataRoot, ext.id.replace(/[^\w.-]/g, '-')) },
    });
  }
  return { inputs, problems };
}
