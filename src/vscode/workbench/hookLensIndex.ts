import os from 'node:os';
import path from 'node:path';
import type * as vscode from 'vscode';
import { locateHooks, type HookDocumentKind, type LocatedHook } from '../../hooks/config/hookLocations';
import { canSwitchOff, hookLocationId, isSwitchedOff } from '../../hooks/config/hookSwitches';
import type { LoadedHook } from '../../hooks/config/loadedHook';
import { sourceDocumentLabel, type HookSource } from '../../configFiles/hookSource';
import { formatPlaces, hookFormatAdapter, hookFormatName } from '../../hooks/formats/formatRegistry';
import type { HookConfigChange } from '../config/hookConfigService';

/** A settings document that holds hooks: how to read it and where its commands run. */
export interface HookDocument extends HookDocumentKind {
  /** Where relative paths and `$CLAUDE_PROJECT_DIR` resolve. */
  readonly projectDir: string;
  readonly pluginRoot?: string;
  readonly hooks: readonly LocatedHook[];
}

/** Whether a hook runs in this window, and why not. */
export interface HookState {
  readonly effective: boolean;
  /** One line: `effective`, `skipped: the workspace is not trusted`, … */
  readonly text: string;
  readonly hook?: LoadedHook;
  /** False for managed policy hooks. */
  readonly switchable: boolean;
  readonly switchedOff: boolean;
}

interface Known {
  readonly kind: HookDocumentKind;
  readonly pluginRoot?: string;
  readonly folder?: string;
}

/** Located hooks cached per document (a lens, a hover and links ask for the same text in a row). */
const MAX_CACHED = 20;

/**
 * Which open documents hold hooks (every file the loaded configuration read hooks from, plus the
 * standard `.claude/settings*.json` and `~/.claude/settings.json` places and the places other
 * agents read their hook files from: `.github/hooks/*.json`, `.cursor/hooks.json`, …), the hooks located in
 * each, and each hook's state in the applied configuration. Rebuilt lazily per generation.
 */
export class HookLensIndex {
  private generation: HookConfigChange | undefined;
  private files = new Map<string, Known>();
  private byId = new Map<string, LoadedHook>();
  private active = new Set<string>();
  private held = new Map<string, 'untrusted' | 'unapproved'>();
  private readonly cache = new Map<string, { version: number; change: HookConfigChange | undefined; doc: HookDocument | undefined }>();

  constructor(
    private readonly current: () => HookConfigChange | undefined,
    private readonly folders: () => readonly string[],
    private readonly homeDir: string = os.homedir(),
  ) {}

  /** The hooks of `document`, or undefined when it is not a hook settings file. */
  document(document: vscode.TextDocument): HookDocument | undefined {
    const change = this.refresh();
    const key = document.uri.toString();
    const cached = this.cache.get(key);
    if (cached && cached.version === document.version && cached.change === change) return cached.doc;
    const known = this.known(document.uri.fsPath);
    const doc = known
      ? {
          ...known.kind,
          projectDir: known.folder ?? this.folders()[0] ?? this.homeDir,
          ...(known.pluginRoot !== undefined ? { pluginRoot: known.pluginRoot } : {}),
          hooks: locateHooks(document.getText(), known.kind),
        }
      : undefined;
    this.cache.delete(key);
    this.cache.set(key, { version: document.version, change, doc });
    for (const k of this.cache.keys()) if (this.cache.size > MAX_CACHED) this.cache.delete(k);
    return doc;
  }

  /** The hook `id` names in the applied configuration and whether it runs. */
  state(id: string): HookState {
    const change = this.refresh();
    const hook = this.byId.get(id);
    if (!change || !hook) {
      const why = change?.config.disabled
        ? `all hooks are off (${change.config.disabledBy.join(', ') || 'disableAllHooks'})`
        : change?.config.projectHooksOffBy
          ? `the project's hooks are off (${change.config.projectHooksOffBy.join(', ')}), or not loaded: see Problems`
          : 'not loaded: save the file, or see Problems (an invalid, duplicate or policy-blocked hook is not loaded)';
      return { effective: false, text: `skipped: ${why}`, switchable: true, switchedOff: false };
    }
    const switchable = canSwitchOff(hook);
    const switchedOff = change.config.disabledHookIds !== undefined && isSwitchedOff(hook, change.config.disabledHookIds);
    const base = { hook, switchable, switchedOff };
    if (switchedOff) return { ...base, effective: false, text: 'skipped: switched off in hookwise.hooks.disabled' };
    const held = this.held.get(id);
    if (held === 'untrusted') return { ...base, effective: false, text: 'skipped: the workspace is not trusted' };
    if (held === 'unapproved') return { ...base, effective: false, text: 'skipped: not approved yet (project hooks run once you approve them)' };
    if (this.active.has(id)) return { ...base, effective: true, text: switchable ? 'effective' : 'effective (managed policy: always runs)' };
    return { ...base, effective: false, text: 'skipped: not for the sessions of this window (another folder, or a duplicate of an earlier hook)' };
  }

  /** The source of a configured hook by id (for the switch). */
  source(id: string): HookSource | undefined {
    this.refresh();
    return this.byId.get(id)?.source;
  }

  forget(document: vscode.TextDocument): void {
    this.cache.delete(document.uri.toString());
  }

  private refresh(): HookConfigChange | undefined {
    const change = this.current();
    if (change === this.generation) return change;
    this.generation = change;
    this.files = new Map();
    this.byId = new Map();
    this.active = new Set((change?.applied.active ?? []).map((h) => hookLocationId(h)));
    this.held = new Map((change?.applied.held ?? []).map((h) => [hookLocationId(h.hook), h.why]));
    for (const hook of change?.config.hooks ?? []) {
      const id = hookLocationId(hook);
      if (!this.byId.has(id)) this.byId.set(id, hook);
      const known = knownFile(hook);
      if (known && !this.files.has(key(known.file))) this.files.set(key(known.file), known.known);
    }
    return change;
  }

  private known(file: string): Known | undefined {
    const found = this.files.get(key(file));
    if (found) return found;
    // Files with no loaded hook yet (all invalid, or hooks switched off everywhere): the standard places.
    const folders = this.folders();
    const prefix = (folder: string): string => (folders.length > 1 ? `${path.basename(folder)}/` : '');
    for (const folder of folders) {
      for (const name of ['settings.json', 'settings.local.json'])
        if (key(file) === key(path.join(folder, '.claude', name))) return { kind: { label: `${prefix(folder)}.claude/${name}`, shape: 'claude' }, folder };
      if (folders.length === 1 && key(file) === key(path.join(folder, '.vscode', 'settings.json')))
        return { kind: { label: 'workspace settings', shape: 'vscodeSettings' }, folder };
    }
    if (key(file) === key(path.join(this.homeDir, '.claude', 'settings.json'))) return { kind: { label: '~/.claude/settings.json', shape: 'claude' } };
    return standardFormatFile(
      file,
      this.homeDir,
      folders.map((f) => ({ root: f, prefix: prefix(f) })),
    );
  }
}

/** Another agent's hooks file in one of the places that agent reads (formatRegistry.ts), labelled as the loader labels it. */
function standardFormatFile(file: string, homeDir: string, folders: readonly { root: string; prefix: string }[]): Known | undefined {
  for (const place of formatPlaces(homeDir, folders, undefined)) {
    let displayFile: string | undefined;
    if (place.kind === 'file' && key(file) === key(place.path)) displayFile = place.display;
    else if (place.kind === 'directory' && key(path.dirname(file)) === key(place.path)) {
      const name = path.basename(file);
      const isHookFile = hookFormatAdapter(place.format)?.directoryEntry ?? ((n: string) => n.toLowerCase().endsWith('.json'));
      if (isHookFile(name)) displayFile = `${place.display}/${name}`;
    }
    if (displayFile === undefined) continue;
    const format = { id: place.format, file, displayFile, scope: place.scope };
    return {
      kind: { label: `${hookFormatName(place.format)} ${displayFile}`, shape: 'format', format },
      ...(place.folder !== undefined ? { folder: place.folder } : {}),
    };
  }
  return undefined;
}

/** The file a loaded hook came from and how its document reads. */
function knownFile(hook: LoadedHook): { file: string; known: Known } | undefined {
  const { source } = hook;
  if (source.kind === 'code') return undefined;
  if (source.kind === 'settings') {
    if (source.file === undefined) return undefined;
    const label = sourceDocumentLabel(source);
    const shape = source.file.endsWith('.code-workspace') ? 'workspaceFile' : 'vscodeSettings';
    return { file: source.file, known: { kind: { label, shape }, ...(hook.folder !== undefined ? { folder: hook.folder } : {}) } };
  }
  const label = sourceDocumentLabel(source);
  const folder = hook.folder !== undefined ? { folder: hook.folder } : {};
  if (hook.format !== undefined && (source.scope === 'user' || source.scope === 'project')) {
    const format = { id: hook.format.binding.format, file: source.file, displayFile: source.displayFile, scope: source.scope };
    return { file: source.file, known: { kind: { label, shape: 'format', format }, ...folder } };
  }
  // Agent files and SKILL.md keep hooks in their YAML frontmatter.
  const shape = !/\.md$/i.test(source.file) ? 'claude' : source.skill !== undefined ? 'skillFile' : 'agentFile';
  return {
    file: source.file,
    known: {
      kind: { label, shape },
      ...(hook.folder !== undefined ? { folder: hook.folder } : {}),
      ...(source.plugin !== undefined ? { pluginRoot: source.plugin.root } : {}),
    },
  };
}

/** File keys compare case-insensitively where the file system does. */
function key(file: string): string {
  const resolved = path.resolve(file);
  return process.platform === 'win32' || process.platform === 'darwin' ? resolved.toLowerCase() : resolved;
}
