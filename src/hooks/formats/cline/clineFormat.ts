import path from 'node:path';
import { DiagnosticSink } from '../../../configFiles/diagnosticSink';
import type { HookEvent } from '../../hookEvent';
import type { HookMatcher } from '../../matchers/hookMatcher';
import { MATCH_ALL } from '../../matchers/hookMatcher';
import type { FormatBinding, FormatFileContent, FormatFileWhere, HookFormatAdapter } from '../hookFormat';
import { clineInput, clineVerdict } from './clineRuntime';

/** Cline's hook time limit (hook-factory.ts HOOK_EXECUTION_TIMEOUT_MS). */
const CLINE_TIMEOUT_MS = 30_000;

/** Cline's hook files (named after their event) and the Hookwise event each runs on. */
const EVENTS: Readonly<Record<string, HookEvent>> = {
  TaskStart: 'SessionStart',
  TaskResume: 'SessionStart',
  TaskCancel: 'SessionEnd',
  TaskComplete: 'Stop',
  UserPromptSubmit: 'UserPromptSubmit',
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  PreCompact: 'PreCompact',
  Notification: 'Notification',
};

/** Quotes a path for the POSIX shell the command runs in. */
function shellQuote(file: string): string {
  return `'${file.replace(/'/g, `'\\''`)}'`;
}

/**
 * A file in `.clinerules/hooks/` or `~/Documents/Cline/Hooks/` is one hook: its name is its event,
 * the file itself runs (its shebang picks the interpreter). Files named otherwise are not listed.
 */
function parseCline(text: string, where: FormatFileWhere): FormatFileContent {
  const sink = new DiagnosticSink({ ...where, text });
  const nativeEvent = path.basename(where.file);
  const event = EVENTS[nativeEvent];
  if (event === undefined) return { hooks: [], diagnostics: [] };
  if (process.platform === 'win32') {
    sink.reportAt('warning', 'notCarriedOver', 0, 0, 'Cline runs no hooks on Windows; neither does Hookwise for this file');
    return { hooks: [], diagnostics: sink.diagnostics };
  }
  if (!text.startsWith('#!'))
    sink.reportAt(
      'warning',
      'notCarriedOver',
      0,
      0,
      'a Cline hook must start with a shebang (#!/usr/bin/env bash, node, …); without one it fails to start, in Cline and in Hookwise',
    );
  const binding: FormatBinding = { format: 'cline', nativeEvent };
  return { hooks: [{ event, binding, command: shellQuote(where.file), path: [] }], diagnostics: sink.diagnostics };
}

/** TaskStart runs for a new session only, TaskResume for a resumed one; Cline has no other starts. */
function compileClineMatcher(binding: FormatBinding, event: HookEvent): HookMatcher {
  if (event !== 'SessionStart') return MATCH_ALL;
  const source = binding.nativeEvent === 'TaskResume' ? 'resume' : 'startup';
  return { description: binding.nativeEvent, matches: ({ input }) => input.source === source };
}

/** Cline hook scripts (docs/formats/cline.md). */
export const clineFormat: HookFormatAdapter = {
  id: 'cline',
  displayName: 'Cline',
  locations: [
    { scope: 'project', kind: 'directory', path: '.clinerules/hooks' },
    { scope: 'user', kind: 'directory', path: 'Documents/Cline/Hooks' },
  ],
  directoryEntry: (name) => Object.hasOwn(EVENTS, name),
  runsFile: true,
  parse: parseCline,
  compileMatcher: compileClineMatcher,
  translateInput: clineInput,
  interpret: clineVerdict,
  defaultTimeoutMs: () => CLINE_TIMEOUT_MS,
  failClosed: () => false,
};
