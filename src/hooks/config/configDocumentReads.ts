import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { ConfigFileTooLargeError, MAX_CONFIG_FILE_BYTES } from '../../configFiles/configLimits';
import type { ConfigFileSystem } from '../../configFiles/configFileSystem';
import { thrownMessage } from '../../shared/describeThrown';
import { listAgentFiles, listFormatFiles, listSkillFiles } from './configDirectoryListing';
import { isProjectInput, sourceRank, type ConfigSourceInput, type SettingsValueInput } from './configSources';
import { parseConfigFile, type ConfigFileInput, type ParsedConfigFile } from './configFileParse';
import { isFatalConfigError, type BrokenConfigFile, type LastGoodStore } from './lastGoodConfig';
import { isInputSelected, type WorkspaceHookSwitches } from './workspaceNarrowing';
import type { HookSourceKey } from './hookSourceKeys';

/**
 * One input with its text read (undefined = missing file / unset setting). Agents directories are
 * already expanded. `parsed` is that text as its reader understood it, when the reading parsed it
 * already (readConfigDocuments does): building the configuration then does not parse it again.
 */
export type ConfigDocument =
  | {
      readonly input: Exclude<
        ConfigSourceInput,
        { kind: 'agentsDirectory' } | { kind: 'skillsDirectory' } | { kind: 'formatDirectory' } | { kind: 'settingsValue' }
      >;
      readonly text: string | undefined;
      readonly parsed?: ParsedConfigFile;
    }
  | { readonly input: SettingsValueInput };

/** What reading the inputs of one load gave, besides the documents themselves. */
export interface ConfigDocumentReads {
  /** The selected inputs in merge order, directories expanded into their files. */
  readonly documents: ConfigDocument[];
  /** Files that could not be read, or were too large, and directories that could not be listed. */
  readonly ioDiagnostics: ConfigDiagnostic[];
  /** Files that could not be read or parsed, with what stands in for them. */
  readonly broken: BrokenConfigFile[];
  /** Diagnostics of the file as it is now, for each file whose last good version is used instead. */
  readonly replaced: Map<string, ConfigDiagnostic[]>;
}

/** Which inputs to read, and where the last good texts are kept. */
export interface ConfigDocumentReadOptions {
  readonly sources?: readonly HookSourceKey[];
  readonly workspace?: WorkspaceHookSwitches;
  readonly lastGood?: LastGoodStore;
}

/**
 * Reads the text of every selected input, in merge order (missing files are fine, unreadable or
 * too large ones become diagnostics), and parses each file's text once. With a `lastGood` store a
 * broken file is replaced by its last good text, and `broken` says so.
 */
export async function readConfigDocuments(
  inputs: readonly ConfigSourceInput[],
  fs: ConfigFileSystem,
  options: ConfigDocumentReadOptions,
): Promise<ConfigDocumentReads> {
  const reads: ConfigDocumentReads = { documents: [], ioDiagnostics: [], broken: [], replaced: new Map() };
  const { documents, ioDiagnostics } = reads;
  const selected = inputs.filter((i) => isInputSelected(i, options.sources, options.workspace));
  for (const input of sortByRank(selected, (i) => i)) {
    if (input.kind === 'settingsValue') {
      documents.push({ input });
    } else if (input.kind === 'agentsDirectory') {
      for (const agent of await listAgentFiles(fs, input, ioDiagnostics)) documents.push(await readConfigFile(agent, fs, options.lastGood, reads));
    } else if (input.kind === 'skillsDirectory') {
      for (const skill of await listSkillFiles(fs, input, ioDiagnostics)) documents.push(await readConfigFile(skill, fs, options.lastGood, reads));
    } else if (input.kind === 'formatDirectory') {
      for (const file of await listFormatFiles(fs, input, ioDiagnostics)) documents.push(await readConfigFile(file, fs, options.lastGood, reads));
    } else {
      documents.push(await readConfigFile(input, fs, options.lastGood, reads));
    }
  }
  return reads;
}

/** Inputs in merge order (docs/hooks.md §6); equal ranks keep their given order. */
export function sortByRank<T>(items: readonly T[], inputOf: (item: T) => ConfigSourceInput): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => sourceRank(inputOf(a.item)) - sourceRank(inputOf(b.item)) || a.index - b.index)
    .map((x) => x.item);
}

/** A file input read and parsed once; `parsed` is absent for a missing or unreadable file. */
type FileDocument<I extends ConfigFileInput> = { readonly input: I; readonly text: string | undefined; readonly parsed?: ParsedConfigFile };

/**
 * Reads one file and parses its text once (its last good text instead when it is broken and a
 * store knows one). A broken file never silently drops its policy: its last good version stays in
 * force (lastGoodConfig.ts). Adds to `reads` what it found besides the document.
 */
export async function readConfigFile<I extends ConfigFileInput>(
  input: I,
  fs: ConfigFileSystem,
  store: LastGoodStore | undefined,
  reads: Omit<ConfigDocumentReads, 'documents'>,
): Promise<FileDocument<I>> {
  const before = reads.ioDiagnostics.length;
  const text = await readText(input.file, input.displayFile, fs, reads.ioDiagnostics);
  const parsed = text !== undefined ? parseConfigFile(input, text) : undefined;
  const doc: FileDocument<I> = { input, text, ...(parsed !== undefined ? { parsed } : {}) };
  if (store === undefined) return doc;
  const ioErrors = reads.ioDiagnostics.slice(before).filter(isFatalConfigError);
  // Its fatal errors decide, and the rest are shown when the last good version stands in.
  const current = ioErrors.length === 0 && parsed !== undefined ? parsed.content.diagnostics : [];
  const errors = ioErrors.length > 0 ? ioErrors : current.filter(isFatalConfigError);
  const first = errors[0];
  if (first === undefined) {
    await store.remember(input.file, text);
    return doc;
  }
  const good = await store.get(input.file);
  reads.broken.push({
    file: input.file,
    displayFile: input.displayFile,
    inForce: good !== undefined ? 'lastGood' : 'none',
    error: first,
    project: isProjectInput(input),
  });
  if (good === undefined) return doc;
  reads.replaced.set(input.file, current);
  return { input, text: good, parsed: parseConfigFile(input, good) };
}

async function readText(file: string, displayFile: string, fs: ConfigFileSystem, ioDiagnostics: ConfigDiagnostic[]): Promise<string | undefined> {
  try {
    const text = await fs.readTextFile(file);
    // An injected file system may not bound sizes itself; UTF-16 length ≤ byte length, so this never refuses a file within the limit.
    if (text !== undefined && text.length > MAX_CONFIG_FILE_BYTES) throw new ConfigFileTooLargeError(file, text.length);
    return text;
  } catch (error) {
    const tooLarge = error instanceof ConfigFileTooLargeError;
    ioDiagnostics.push({
      file,
      displayFile,
      jsonPath: '',
      severity: 'error',
      code: tooLarge ? 'tooLarge' : 'unreadable',
      message: `${tooLarge ? error.message : `cannot read the file (${thrownMessage(error)})`}; it contributes nothing, the other sources still load`,
    });
    return undefined;
  }
}
