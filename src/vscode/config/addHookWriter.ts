import { findNodeAtLocation, getNodeValue, parseTree } from 'jsonc-parser';
import path from 'node:path';
import * as vscode from 'vscode';
import { computeAddHookEdit } from '../../hooks/config/addHookEdit';
import type { HookHandlerConfig } from '../../hooks/config/hookConfigSchema';
import type { HookEvent } from '../../hooks/hookEvent';
import { guessUserSettingsFile, locateSettingsFile, workspaceSettingsFile } from './settingsLayers';

/**
 * Writes the hook the Add Hook flow built into the chosen file with `computeAddHookEdit`
 * (minimal jsonc edits: comments and formatting survive), through the editor's document so
 * unsaved changes in an open editor are kept, then reveals the new entry.
 */

/** Where the user chose to save. */
export type AddHookTargetKind = 'workspaceSettings' | 'userSettings' | 'claudeProject' | 'claudeLocal';

/** The hook to add. */
export interface NewHook {
  readonly event: HookEvent;
  readonly matcher: string | undefined;
  readonly handler: HookHandlerConfig;
}

/** What was written. */
export interface AddHookWriteResult {
  readonly uri: vscode.Uri | undefined;
  /** Display JSON path of the new handler. */
  readonly jsonPath: string;
}

/** Settings keys VS Code folds into `hookwise.hooks` from sibling settings; not written back. */
const SIBLING_KEYS = ['enabled', 'sources', 'disabled'];

/** Resolves the file and the JSON path of the hooks object for `target`; undefined when there is no such file (no folder open). */
export async function resolveTargetFile(
  target: AddHookTargetKind,
  folder: vscode.WorkspaceFolder | undefined,
  globalStorageUri: vscode.Uri,
): Promise<{ file: string; hooksPath: string[] } | undefined> {
  switch (target) {
    case 'claudeProject':
    case 'claudeLocal':
      if (!folder || folder.uri.scheme !== 'file') return undefined;
      return { file: path.join(folder.uri.fsPath, '.claude', target === 'claudeProject' ? 'settings.json' : 'settings.local.json'), hooksPath: ['hooks'] };
    case 'workspaceSettings': {
      const ws = workspaceSettingsFile();
      return ws ? { file: ws.file, hooksPath: [...ws.textPath] } : undefined;
    }
    case 'userSettings': {
      // Only a file certainly behind the user layer (its hooks equal VS Code's value); otherwise the caller goes through the settings API.
      const file = guessUserSettingsFile(globalStorageUri);
      const value = vscode.workspace.getConfiguration('hookwise').inspect('hooks')?.globalValue;
      if (!file || value === undefined) return undefined;
      const located = await locateSettingsFile(file, ['hookwise.hooks'], value);
      return located?.matchesLayer ? { file, hooksPath: ['hookwise.hooks'] } : undefined;
    }
  }
}

/** Adds `hook` to the file's text (creating the file when missing) and saves it. Throws AddHookError for an unfixable file. */
export async function addHookToFile(file: string, hooksPath: readonly string[], hook: NewHook, reveal: boolean): Promise<AddHookWriteResult> {
  const uri = vscode.Uri.file(file);
  let document: vscode.TextDocument | undefined;
  try {
    document = await vscode.workspace.openTextDocument(uri);
  } catch {
    document = undefined; // missing file: created below
  }
  const text = document?.getText() ?? '';
  const result = computeAddHookEdit(text, hook.event, hook.matcher, hook.handler, { hooksPath });
  if (document) {
    const edit = new vscode.WorkspaceEdit();
    const doc = document;
    for (const e of result.edits) edit.replace(uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`could not edit ${file}`);
    await document.save();
  } else {
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(path.dirname(file)));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(result.text));
    document = await vscode.workspace.openTextDocument(uri);
  }
  if (reveal) {
    const doc = document;
    const range = new vscode.Range(doc.positionAt(result.offset), doc.positionAt(result.offset + result.length));
    await vscode.window.showTextDocument(doc, { selection: range, preview: false });
  }
  return { uri, jsonPath: result.jsonPath };
}

/**
 * User settings whose file cannot be located (another profile, a remote window): computes the
 * same edit on the current value, writes it with the settings API, then opens the user
 * settings JSON at the new entry when it can find it there.
 */
export async function addHookToUserSettingsValue(hook: NewHook, reveal: boolean): Promise<AddHookWriteResult> {
  const configuration = vscode.workspace.getConfiguration('hookwise');
  const current = configuration.inspect('hooks')?.globalValue;
  const hooks: Record<string, unknown> =
    typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
  for (const key of SIBLING_KEYS) delete hooks[key];
  const result = computeAddHookEdit(JSON.stringify({ hooks }), hook.event, hook.matcher, hook.handler);
  const updated = (JSON.parse(result.text) as { hooks: unknown }).hooks;
  await configuration.update('hooks', updated, vscode.ConfigurationTarget.Global);
  if (reveal) {
    await vscode.commands.executeCommand('workbench.action.openSettingsJson');
    const editor = vscode.window.activeTextEditor;
    const root = editor ? parseTree(editor.document.getText(), [], { allowTrailingComma: true }) : undefined;
    const groups = root ? findNodeAtLocation(root, ['hookwise.hooks', hook.event]) : undefined;
    // The edit appends: the new handler is the last one of the last group with this matcher.
    const group = groups?.children?.filter((g) => ((getNodeValue(g) as { matcher?: string }).matcher ?? undefined) === (hook.matcher || undefined)).pop();
    const handler = group ? findNodeAtLocation(group, ['hooks'])?.children?.at(-1) : undefined;
    if (editor && handler) {
      const range = new vscode.Range(editor.document.positionAt(handler.offset), editor.document.positionAt(handler.offset + handler.length));
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
    return { uri: editor?.document.uri, jsonPath: result.jsonPath.replace(/^hooks/, 'hookwise.hooks') };
  }
  return { uri: undefined, jsonPath: result.jsonPath.replace(/^hooks/, 'hookwise.hooks') };
}
