import path from 'node:path';
import { copilotFormat } from './copilot/copilotFormat';
import { cursorFormat } from './cursor/cursorFormat';
import { windsurfFormat } from './windsurf/windsurfFormat';
import { codexFormat } from './codex/codexFormat';
import { geminiFormat } from './gemini/geminiFormat';
import { clineFormat } from './cline/clineFormat';
import type { FormatBinding, HookFormatAdapter, HookFormatId } from './hookFormat';
import type { HookEvent } from '../hookEvent';
import type { HookMatcher } from '../matchers/hookMatcher';

/**
 * The formats Hookwise reads (hookFormat.ts says how to add one). A format id without an adapter
 * here is accepted by `hookwise.hooks.formats` and reads nothing yet.
 */
const ADAPTERS: Readonly<Partial<Record<HookFormatId, HookFormatAdapter>>> = {
  copilot: copilotFormat,
  cursor: cursorFormat,
  windsurf: windsurfFormat,
  codex: codexFormat,
  gemini: geminiFormat,
  cline: clineFormat,
};

/** The adapter of a format, or undefined when it is not built yet. */
export function hookFormatAdapter(id: HookFormatId): HookFormatAdapter | undefined {
  return ADAPTERS[id];
}

/** Every registered adapter, in registry order. */
export function registeredHookFormats(): HookFormatAdapter[] {
  return Object.values(ADAPTERS).filter((a): a is HookFormatAdapter => a !== undefined);
}

/** `Copilot`, `Cursor`, …; the id itself for a format without an adapter. */
export function hookFormatName(id: HookFormatId): string {
  return ADAPTERS[id]?.displayName ?? id;
}

/** One place a format's file or files are read, for the loader (configSources.ts turns these into inputs). */
export interface FormatPlace {
  readonly format: HookFormatId;
  readonly scope: 'user' | 'project';
  readonly kind: 'file' | 'directory';
  /** Absolute path. */
  readonly path: string;
  /** `.github/hooks`, `~/.cursor/hooks.json`, with the folder name first in a multi-root workspace. */
  readonly display: string;
  readonly folder?: string;
}

/**
 * Where the `enabled` formats' files are, for a home directory and the workspace folders
 * (`prefix` per folder: its name and `/` in a multi-root workspace, else empty). No I/O.
 */
export function formatPlaces(
  homeDir: string,
  folders: readonly { readonly root: string; readonly prefix: string }[],
  enabled: readonly HookFormatId[] | undefined,
): FormatPlace[] {
  const places: FormatPlace[] = [];
  for (const adapter of registeredHookFormats()) {
    if (enabled !== undefined && !enabled.includes(adapter.id)) continue;
    for (const location of adapter.locations) {
      const parts = location.path.split('/');
      if (location.scope === 'user') {
        places.push({ format: adapter.id, scope: 'user', kind: location.kind, path: path.join(homeDir, ...parts), display: `~/${location.path}` });
        continue;
      }
      for (const folder of folders)
        places.push({
          format: adapter.id,
          scope: 'project',
          kind: location.kind,
          path: path.join(folder.root, ...parts),
          display: `${folder.prefix}${location.path}`,
          folder: folder.root,
        });
    }
  }
  return places;
}

/** The matcher of a foreign hook in its agent's syntax (the binder's and explain's), or why it cannot be built. */
export function compileFormatMatcher(
  binding: FormatBinding,
  event: HookEvent,
): { readonly ok: true; readonly matcher: HookMatcher } | { readonly ok: false; readonly message: string } {
  const adapter = ADAPTERS[binding.format];
  if (adapter === undefined) return { ok: false, message: `hooks of the ${binding.format} format cannot run in this version` };
  const matcher = adapter.compileMatcher(binding, event);
  return typeof matcher === 'string' ? { ok: false, message: matcher } : { ok: true, matcher };
}
