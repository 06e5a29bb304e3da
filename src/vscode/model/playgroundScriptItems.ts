import path from 'node:path';
import type * as vscode from 'vscode';

/** One entry of the playground script picker: `script` is the setting's value, undefined for "Choose a script file…". */
export type PlaygroundScriptItem = vscode.QuickPickItem & { readonly script: string | undefined };

/** What the picker needs to know about the current choice and the workspace. */
export interface PlaygroundScriptChoice {
  /** `hookwise.model.provider` now. */
  readonly provider: string;
  /** `hookwise.model.playgroundScript` now ('' = the default script). */
  readonly playgroundScript: string;
  /** The workspace's default script file (WORKSPACE_PLAYGROUND_SCRIPT), when the workspace has one. */
  readonly workspaceScript?: string;
}

const CURRENT = '$(check) current';

/**
 * The playground script picker's entries: the default script, the script chosen now when it is a
 * file of its own, and "Choose a script file…". The one in use (when the Playground is the
 * provider) says "current", is `picked`, and comes first so the picker opens on it.
 */
export function playgroundScriptItems(choice: PlaygroundScriptChoice, defaultScriptName: string): PlaygroundScriptItem[] {
  const playground = choice.provider === 'playground';
  const chosen = choice.playgroundScript.trim();
  const byDefault: PlaygroundScriptItem = {
    label: '$(beaker) Default script',
    detail: choice.workspaceScript !== undefined ? `${defaultScriptName} in this workspace` : `The built-in demo (this workspace has no ${defaultScriptName})`,
    script: '',
    ...(playground && chosen === '' ? { description: CURRENT, picked: true } : {}),
  };
  const items: PlaygroundScriptItem[] = [byDefault];
  if (chosen !== '') {
    const file: PlaygroundScriptItem = {
      label: `$(file) ${path.basename(chosen)}`,
      detail: chosen,
      script: chosen,
      ...(playground ? { description: CURRENT, picked: true } : { description: 'last chosen' }),
    };
    if (playground) items.unshift(file);
    else items.push(file);
  }
  items.push({ label: '$(folder-opened) Choose a script file…', detail: 'A JSON file of scripted model turns', script: undefined });
  return items;
}
