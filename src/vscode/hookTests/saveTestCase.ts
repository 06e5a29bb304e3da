import * as vscode from 'vscode';
import { mkdir, writeFile, access } from 'node:fs/promises';
import path from 'node:path';
import type { HookRunRecord } from '../../hooks/hookRunTypes';
import { thrownMessage } from '../../shared/describeThrown';
import { defaultTestCaseName, testCaseFileName, testCaseFromRuns } from './testCaseFromRuns';

/** Command id of "Save as Test Case" (Hook Runs context menu on an event or a run). */
export const SAVE_TEST_CASE_COMMAND = 'hookwise.hookRuns.saveAsTestCase';

export interface SaveTestCaseOptions {
  /** Skip the name prompt (tests and scripted use). */
  readonly name?: string;
  /** Replace an existing file without asking. */
  readonly overwrite?: boolean;
}

/**
 * Writes the occurrence's runs as `.hookwise/hook-tests/<name>.json` in the workspace folder
 * the event happened in (else the first folder), after asking for the name; opens the file.
 * Returns the file written, or undefined when cancelled or there is no folder.
 */
export async function saveTestCase(runs: readonly HookRunRecord[], options: SaveTestCaseOptions = {}): Promise<vscode.Uri | undefined> {
  const first = runs[0];
  if (!first) return undefined;
  const cwd = typeof first.input['cwd'] === 'string' ? first.input['cwd'] : undefined;
  const folder = (cwd ? vscode.workspace.getWorkspaceFolder(vscode.Uri.file(cwd)) : undefined) ?? vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void vscode.window.showWarningMessage('Save as Test Case needs an open folder: hook tests live in .hookwise/hook-tests/ of a workspace folder.');
    return undefined;
  }
  const name =
    options.name ??
    (await vscode.window.showInputBox({
      title: 'Save as Test Case',
      prompt: 'Name of the hook test (saved in .hookwise/hook-tests/)',
      value: defaultTestCaseName(runs),
      validateInput: (value) => (value.trim() === '' ? 'A test needs a name' : undefined),
    }));
  if (name === undefined || name.trim() === '') return undefined;
  const testCase = testCaseFromRuns(name.trim(), runs);
  const dir = path.join(folder.uri.fsPath, '.hookwise', 'hook-tests');
  const file = path.join(dir, `${testCaseFileName(name)}.json`);
  try {
    if (!options.overwrite && (await exists(file))) {
      const pick = await vscode.window.showWarningMessage(`${path.basename(file)} already exists.`, { modal: true }, 'Replace');
      if (pick !== 'Replace') return undefined;
    }
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${JSON.stringify(testCase, null, 2)}\n`);
  } catch (error) {
    void vscode.window.showErrorMessage(`Could not save the hook test ${file}: ${thrownMessage(error)}`);
    return undefined;
  }
  const uri = vscode.Uri.file(file);
  if (options.name === undefined) await vscode.window.showTextDocument(uri, { preview: true });
  return uri;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
