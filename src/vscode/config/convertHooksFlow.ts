import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { readBoundedTextFile } from '../../configFiles/configFileSystem';
import { readFormatFileText } from '../../hooks/formats/formatFileRead';
import { locateFormatFile, type LocatedFormatFile } from '../../hooks/formats/formatFileLocate';
import { formatPlaces, hookFormatAdapter, hookFormatName } from '../../hooks/formats/formatRegistry';
import { convertFormatHooks, type ConvertedHook, type HookConversion } from '../../hooks/formats/hookConversion';
import { alreadyThere } from '../../hooks/formats/hookConversionMerge';
import { conversionMarkdown, TWICE_NOTE } from '../../hooks/formats/hookConversionReport';
import { thrownMessage } from '../../shared/describeThrown';
import type { MarkdownTabs } from '../workbench/markdownTabs';
import { addHookToFile, type NewHook } from './addHookWriter';

/**
 * "Hookwise: Convert Hooks…": pick another agent's hooks file of the workspace, see what converts
 * exactly to `.claude/settings.json` and what does not (a Markdown page, src/hooks/formats/
 * hookConversion.ts decides), then confirm a modal that writes the entries. Writing goes through
 * Add Hook's writer (minimal JSONC edits through the editor's document) and approves exactly the
 * written hooks, as Add Hook does, so they run after the reload without another question.
 */

/** Answers that skip the questions (tests, other commands). */
export interface ConvertHooksAnswers {
  /** Absolute path of the file to convert (else a quick pick). */
  readonly file?: string;
  /** The modal's answer (else asked). */
  readonly write?: boolean;
  /** Show the Markdown report; default true. */
  readonly preview?: boolean;
}

/** What the flow needs from the hook configuration. */
export interface ConvertHooksDeps {
  readonly log: vscode.LogOutputChannel;
  readonly tabs: MarkdownTabs;
  /** Approves a hook the user chose to write into `file` (HookConfigService.approveWritten). */
  readonly approveWritten: (hook: NewHook, file: string) => void;
  readonly reload: () => Promise<unknown>;
}

/** What happened, for tests and callers; undefined when cancelled or nothing applies. */
export interface ConvertHooksResult {
  readonly source: string;
  readonly target: string;
  readonly conversion: HookConversion;
  readonly added: number;
  readonly present: number;
}

/** A hooks file of another agent in a workspace folder. */
interface FoundFile {
  readonly file: string;
  readonly folder: string;
  readonly label: string;
}

/** Runs the command; never throws (errors become messages and a log line). */
export async function runConvertHooksFlow(deps: ConvertHooksDeps, answers: ConvertHooksAnswers = {}): Promise<ConvertHooksResult | undefined> {
  try {
    return await convert(deps, answers);
  } catch (error) {
    deps.log.error(`Convert Hooks failed: ${thrownMessage(error)}`);
    void vscode.window.showErrorMessage(`Hookwise could not convert the hooks: ${thrownMessage(error)}.`);
    return undefined;
  }
}

async function convert(deps: ConvertHooksDeps, answers: ConvertHooksAnswers): Promise<ConvertHooksResult | undefined> {
  const found = await projectFormatFiles();
  const chosen = answers.file !== undefined ? found.find((f) => path.resolve(f.file) === path.resolve(answers.file as string)) : await pick(found);
  if (chosen === undefined) {
    if (answers.file !== undefined) void vscode.window.showErrorMessage(`Hookwise: ${answers.file} is not a hooks file of another agent in this workspace.`);
    return undefined;
  }
  const located = locateFormatFile(chosen.file, chosen.folder, os.homedir()) as LocatedFormatFile;
  const text = (await readBoundedTextFile(located.file)) ?? '';
  const conversion = convertFormatHooks({ ...readFormatFileText(located.format, text, located), displayFile: located.displayFile, text });
  const target = path.join(chosen.folder, '.claude', 'settings.json');
  const targetLabel = path.relative(chosen.folder, target).split(path.sep).join('/');
  if (answers.preview !== false)
    await deps.tabs.open(`Convert ${located.displayFile}`, conversionMarkdown(conversion, chosen.label, targetLabel), { beside: false });
  const result = { source: located.displayFile, target, conversion, added: 0, present: 0 };
  if (conversion.converted.length === 0) {
    void vscode.window.showInformationMessage(
      `Hookwise: nothing in ${located.displayFile} converts exactly to ${targetLabel} (${conversion.notConverted.length} not converted; the report says why).`,
    );
    return result;
  }
  const current = await currentText(target);
  const fresh = conversion.converted.filter((h) => !alreadyThere(current, h));
  const present = conversion.converted.length - fresh.length;
  if (fresh.length === 0) {
    void vscode.window.showInformationMessage(`Hookwise: the ${present} converted ${present === 1 ? 'entry is' : 'entries are'} already in ${targetLabel}.`);
    return { ...result, present };
  }
  const write = answers.write ?? (await confirm(fresh, conversion, targetLabel));
  if (!write) return { ...result, present };
  // Approved before the write: the load the write causes finds them approved (what the user confirmed, exactly).
  for (const hook of fresh) deps.approveWritten(asNewHook(hook), target);
  for (const hook of fresh) await addHookToFile(target, ['hooks'], asNewHook(hook), false);
  deps.log.info(`converted ${fresh.length} hook(s) of ${located.displayFile} into ${target}`);
  await deps.reload();
  return { ...result, added: fresh.length, present };
}

function asNewHook(hook: ConvertedHook): NewHook {
  return { event: hook.event, matcher: hook.matcher, handler: { ...hook.handler } };
}

/** The modal: what is written, what is not and why in short, and the run-twice warning. */
async function confirm(fresh: readonly ConvertedHook[], conversion: HookConversion, targetLabel: string): Promise<boolean> {
  const entries = fresh.map((h) => `• ${h.event}${h.matcher !== undefined ? ` [${h.matcher}]` : ''}: ${h.handler.command}`);
  const skipped = conversion.notConverted.map((n) => `• ${n.label}`);
  const detail = [
    ...entries,
    ...(skipped.length > 0 ? ['', `Not converted (${skipped.length}, reasons in the report):`, ...skipped.slice(0, 10)] : []),
    ...(skipped.length > 10 ? [`… and ${skipped.length - 10} more`] : []),
    '',
    TWICE_NOTE,
  ].join('\n');
  const button = `Write ${fresh.length} ${fresh.length === 1 ? 'Entry' : 'Entries'}`;
  const answer = await vscode.window.showWarningMessage(
    `Write ${fresh.length} ${fresh.length === 1 ? 'entry' : 'entries'} to ${targetLabel}?`,
    { modal: true, detail },
    button,
  );
  return answer === button;
}

/** The target's text as the editor has it (unsaved changes count), else on disk, else empty. */
async function currentText(file: string): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && path.resolve(d.uri.fsPath) === path.resolve(file));
  if (open !== undefined) return open.getText();
  return (await readBoundedTextFile(file).catch(() => undefined)) ?? '';
}

async function pick(found: readonly FoundFile[]): Promise<FoundFile | undefined> {
  if (found.length === 0) {
    void vscode.window.showInformationMessage('Hookwise: this workspace has no hooks file of another agent (Copilot, Cursor, Codex, Gemini, Windsurf, Cline).');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    found.map((f) => ({ label: f.label, file: f })),
    { title: 'Convert Hooks to .claude/settings.json', placeHolder: 'The hooks file to convert' },
  );
  return picked?.file;
}

/** Every project hooks file of another agent in the workspace folders (local folders only). */
async function projectFormatFiles(): Promise<FoundFile[]> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const multi = folders.length > 1;
  const places = formatPlaces(
    os.homedir(),
    folders.map((f) => ({ root: f.uri.fsPath, prefix: multi ? `${f.name}/` : '' })),
    undefined,
  ).filter((p) => p.scope === 'project');
  const found: FoundFile[] = [];
  for (const place of places) {
    const name = hookFormatName(place.format);
    const folder = place.folder ?? '';
    if (place.kind === 'file') {
      if ((await readBoundedTextFile(place.path).catch(() => undefined)) !== undefined)
        found.push({ file: place.path, folder, label: `${name} ${place.display}` });
      continue;
    }
    const entry = hookFormatAdapter(place.format)?.directoryEntry ?? ((n: string) => n.toLowerCase().endsWith('.json'));
    const names = await readdir(place.path).catch(() => [] as string[]);
    for (const n of names.filter(entry).sort()) found.push({ file: path.join(place.path, n), folder, label: `${name} ${place.display}/${n}` });
  }
  return found;
}
