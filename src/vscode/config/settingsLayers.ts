import { findNodeAtLocation, getNodeValue, parseTree } from 'jsonc-parser';
import path from 'node:path';
import * as vscode from 'vscode';
import { readBoundedTextFile } from '../../configFiles/configFileSystem';
import { findExcessNesting } from '../../configFiles/configLimits';
import type { SettingsLayer, StandardSourcesOptions } from '../../hooks/config/configSources';
import { canonicalJson } from '../../hooks/config/hookApproval';

/**
 * Reads the `hookwise.hooks` layers VS Code knows (user, workspace, folder) and, where the
 * settings file can be located, its text, so the loader's diagnostics get a line and the
 * Add Hook command can edit the file itself (comments survive) instead of rewriting it.
 */

/** Keys VS Code folds into the `hookwise.hooks` object from the sibling settings `hookwise.hooks.enabled`/`.sources`. */
const SIBLING_KEYS = ['enabled', 'sources', 'disabled'];

/** A settings file that was found, with its text and where `hookwise.hooks` sits in it. */
export interface LocatedSettingsFile {
  readonly file: string;
  readonly text: string;
  readonly textPath: readonly string[];
  /**
   * True when the file's `hookwise.hooks` equals the value VS Code reports for the layer, so
   * this is certainly the file behind it (the user settings file is guessed from the
   * profile-less layout; with another profile active it is a different file).
   */
  readonly matchesLayer: boolean;
}

/** Best guess of the user settings.json: `<userData>/User/settings.json`, next to `<userData>/User/globalStorage/<ext>`. */
export function guessUserSettingsFile(globalStorageUri: vscode.Uri): string | undefined {
  if (globalStorageUri.scheme !== 'file') return undefined;
  return path.join(path.dirname(path.dirname(globalStorageUri.fsPath)), 'settings.json');
}

/** The settings file of the workspace layer: the .code-workspace file, or `<folder>/.vscode/settings.json` for a single folder. */
export function workspaceSettingsFile(): { file: string; textPath: readonly string[] } | undefined {
  const wsFile = vscode.workspace.workspaceFile;
  if (wsFile) return wsFile.scheme === 'file' ? { file: wsFile.fsPath, textPath: ['settings', 'hookwise.hooks'] } : undefined;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder && folder.uri.scheme === 'file' ? { file: path.join(folder.uri.fsPath, '.vscode', 'settings.json'), textPath: ['hookwise.hooks'] } : undefined;
}

/** Reads `file` and compares its `hookwise.hooks` with `layerValue`; undefined when the file does not exist. */
export async function locateSettingsFile(file: string, textPath: readonly string[], layerValue: unknown): Promise<LocatedSettingsFile | undefined> {
  let text: string | undefined;
  try {
    // Bounded and FIFO-safe: a workspace's .vscode/settings.json is outside input (docs/security.md).
    text = await readBoundedTextFile(file);
  } catch {
    return undefined;
  }
  // Too deep for the recursive parser: the layer's value still applies, only unlocated.
  if (text === undefined || findExcessNesting(text) !== undefined) return undefined;
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root ? findNodeAtLocation(root, [...textPath]) : undefined;
  const fileValue = node ? (getNodeValue(node) as unknown) : undefined;
  return { file, text, textPath, matchesLayer: sameHooks(fileValue, layerValue) };
}

/** Deep equality of two `hookwise.hooks` values, ignoring the folded-in sibling settings. */
export function sameHooks(a: unknown, b: unknown): boolean {
  return canonicalJson(withoutSiblings(a)) === canonicalJson(withoutSiblings(b));
}

function withoutSiblings(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of SIBLING_KEYS) delete copy[key];
  return Object.keys(copy).length === 0 ? undefined : copy;
}

function layer(value: unknown, located: LocatedSettingsFile | undefined): SettingsLayer | undefined {
  if (value === undefined) return undefined;
  // Text only when it is certainly the file behind the value: a wrong text would put squiggles on the wrong lines.
  return located?.matchesLayer ? { value, file: located.file, text: located.text, textPath: located.textPath } : { value };
}

/**
 * The `standardConfigSources` options for the open workspace: every `hookwise.hooks` layer
 * with its file text when located, every `file:` workspace folder, and the home directory.
 */
export async function readSourceOptions(homeDir: string, globalStorageUri: vscode.Uri): Promise<StandardSourcesOptions> {
  const inspected = vscode.workspace.getConfiguration('hookwise').inspect('hooks');
  const userFile = guessUserSettingsFile(globalStorageUri);
  const userLocated =
    userFile && inspected?.globalValue !== undefined ? await locateSettingsFile(userFile, ['hookwise.hooks'], inspected.globalValue) : undefined;
  const wsFile = workspaceSettingsFile();
  const wsLocated =
    wsFile && inspected?.workspaceValue !== undefined ? await locateSettingsFile(wsFile.file, wsFile.textPath, inspected.workspaceValue) : undefined;

  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const multiRoot = vscode.workspace.workspaceFile !== undefined;
  const folderOptions: { root: string; name: string; settings?: SettingsLayer }[] = [];
  for (const folder of folders) {
    const root = folder.uri.fsPath;
    let settings: SettingsLayer | undefined;
    // In a single-folder workspace the folder layer is the workspace layer, already read above.
    if (multiRoot) {
      const value = vscode.workspace.getConfiguration('hookwise', folder.uri).inspect('hooks')?.workspaceFolderValue;
      const located = value !== undefined ? await locateSettingsFile(path.join(root, '.vscode', 'settings.json'), ['hookwise.hooks'], value) : undefined;
      settings = layer(value, located);
    }
    folderOptions.push({ root, name: folder.name, ...(settings ? { settings } : {}) });
  }
  const userSettings = layer(inspected?.globalValue, userLocated);
  const workspaceSettings = layer(inspected?.workspaceValue, wsLocated);
  return {
    homeDir,
    folders: folderOptions,
    ...(userSettings ? { userSettings } : {}),
    ...(workspaceSettings ? { workspaceSettings } : {}),
  };
}
