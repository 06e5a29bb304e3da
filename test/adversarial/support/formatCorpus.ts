import { stringify as stringifyToml } from 'smol-toml';
import type { JsonSegment } from '../../../src/configFiles/jsonPath';
import type { HookFormatId } from '../../../src/hooks/formats/hookFormat';

/**
 * Every other agent's project hooks file Hookwise reads, as a valid document with one hook and
 * the type each of its fields must have, for the adversarial format suites to break field by field.
 */

/** The JSON type a field must have. */
export type FieldType = 'object' | 'array' | 'string' | 'number' | 'boolean';

/** One field of a document and the types it accepts. */
export interface FormatField {
  readonly path: readonly JsonSegment[];
  readonly types: readonly FieldType[];
}

/** One project file of a format. */
export interface FormatFileKind {
  readonly format: HookFormatId;
  /** Relative to the workspace, `/`-separated. */
  readonly rel: string;
  /** `json` documents and `toml` ones are built from `doc`; a `script` is `script` itself. */
  readonly syntax: 'json' | 'toml' | 'script';
  readonly doc: Record<string, unknown>;
  /** The shell text of a script kind (Cline). */
  readonly script?: string;
  readonly fields: readonly FormatField[];
  /** The command of its one hook, to tell that it loaded. */
  readonly command: string;
}

const S: FieldType[] = ['string'];
const N: FieldType[] = ['number'];
const B: FieldType[] = ['boolean'];
const O: FieldType[] = ['object'];
const A: FieldType[] = ['array'];

function entryFields(at: readonly JsonSegment[], keys: Readonly<Record<string, readonly FieldType[]>>): FormatField[] {
  return Object.entries(keys).map(([key, types]) => ({ path: [...at, key], types }));
}

/** `{"hooks": {event: [entry]}}` formats (Copilot, Cursor, Windsurf): the hooks, the list, the entry and each entry field. */
function listFields(event: string, keys: Readonly<Record<string, readonly FieldType[]>>): FormatField[] {
  const at = ['hooks', event, 0];
  return [{ path: ['hooks'], types: O }, { path: ['hooks', event], types: A }, { path: at, types: O }, ...entryFields(at, keys)];
}

/** Claude-shaped group formats (Codex, Gemini): hooks, the list, the group and its fields, the handler and its fields. */
function groupFields(
  event: string,
  groupKeys: Readonly<Record<string, readonly FieldType[]>>,
  handlerKeys: Readonly<Record<string, readonly FieldType[]>>,
): FormatField[] {
  const group = ['hooks', event, 0];
  const handler = [...group, 'hooks', 0];
  return [
    { path: ['hooks'], types: O },
    { path: ['hooks', event], types: A },
    { path: group, types: O },
    ...entryFields(group, { ...groupKeys, hooks: A }),
    { path: handler, types: O },
    ...entryFields(handler, handlerKeys),
  ];
}

const codexDoc = (command: string): Record<string, unknown> => ({
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        description: 'guard',
        hooks: [{ type: 'command', command, commandWindows: command, timeout: 10, statusMessage: 'checking', async: false, additionalContextLimit: 100 }],
      },
    ],
  },
});
const codexHandlerKeys = { type: S, command: S, commandWindows: S, timeout: N, statusMessage: S, async: B, additionalContextLimit: N };

/** One kind per project file location of every format. */
export function formatFileKinds(): FormatFileKind[] {
  return [
    {
      format: 'copilot',
      rel: '.github/hooks/guard.json',
      syntax: 'json',
      command: 'echo good-copilot',
      doc: {
        version: 1,
        hooks: {
          preToolUse: [
            {
              type: 'command',
              bash: 'echo good-copilot',
              powershell: 'echo good-copilot',
              cwd: '.',
              env: { MODE: 'strict' },
              timeoutSec: 10,
              matcher: 'bash',
              comment: 'guard',
            },
          ],
        },
      },
      fields: [
        { path: ['version'], types: N },
        ...listFields('preToolUse', { type: S, bash: S, powershell: S, cwd: S, env: O, timeoutSec: N, matcher: S, comment: S }),
        { path: ['hooks', 'preToolUse', 0, 'env', 'MODE'], types: S },
      ],
    },
    {
      format: 'copilot',
      rel: '.github/copilot/settings.json',
      syntax: 'json',
      command: 'echo good-copilot-settings',
      doc: { model: 'x', hooks: { sessionStart: [{ type: 'command', command: 'echo good-copilot-settings', description: 'start', timeout: 5 }] } },
      fields: listFields('sessionStart', { type: S, command: S, description: S, timeout: N }),
    },
    {
      format: 'cursor',
      rel: '.cursor/hooks.json',
      syntax: 'json',
      command: 'echo good-cursor',
      doc: {
        version: 1,
        hooks: { stop: [{ command: 'echo good-cursor', type: 'command', timeout: 10, loop_limit: 3, failClosed: false, matcher: 'x', description: 'stop' }] },
      },
      fields: [
        { path: ['version'], types: N },
        ...listFields('stop', { command: S, type: S, timeout: N, loop_limit: N, failClosed: B, matcher: S, description: S }),
      ],
    },
    {
      format: 'windsurf',
      rel: '.windsurf/hooks.json',
      syntax: 'json',
      command: 'echo good-windsurf',
      doc: {
        hooks: {
          pre_run_command: [
            { command: 'echo good-windsurf', powershell: 'echo good-windsurf', show_output: true, working_directory: '.', description: 'guard' },
          ],
        },
      },
      fields: listFields('pre_run_command', { command: S, powershell: S, show_output: B, working_directory: S, description: S }),
    },
    {
      format: 'codex',
      rel: '.codex/hooks.json',
      syntax: 'json',
      command: 'echo good-codex',
      doc: codexDoc('echo good-codex'),
      fields: groupFields('PreToolUse', { matcher: S, description: S }, codexHandlerKeys),
    },
    {
      format: 'codex',
      rel: '.codex/config.toml',
      syntax: 'toml',
      command: 'echo good-codex-toml',
      doc: { model: 'x', ...codexDoc('echo good-codex-toml'), features: { hooks: true } },
      fields: [
        ...groupFields('PreToolUse', { matcher: S, description: S }, codexHandlerKeys),
        { path: ['features'], types: O },
        { path: ['features', 'hooks'], types: B },
      ],
    },
    {
      format: 'gemini',
      rel: '.gemini/settings.json',
      syntax: 'json',
      command: 'echo good-gemini',
      doc: {
        hooksConfig: { enabled: true, disabled: ['other'] },
        hooks: {
          BeforeTool: [
            {
              matcher: 'run_shell_command',
              sequential: false,
              hooks: [{ type: 'command', command: 'echo good-gemini', name: 'guard', timeout: 5000, description: 'guard', env: { MODE: 'strict' } }],
            },
          ],
        },
      },
      fields: [
        { path: ['hooksConfig'], types: O },
        { path: ['hooksConfig', 'enabled'], types: B },
        { path: ['hooksConfig', 'disabled'], types: A },
        { path: ['hooksConfig', 'disabled', 0], types: S },
        ...groupFields('BeforeTool', { matcher: S, sequential: B }, { type: S, command: S, name: S, timeout: N, description: S, env: O }),
        { path: ['hooks', 'BeforeTool', 0, 'hooks', 0, 'env', 'MODE'], types: S },
      ],
    },
    {
      format: 'cline',
      rel: '.clinerules/hooks/PreToolUse',
      syntax: 'script',
      command: '.clinerules/hooks/PreToolUse',
      doc: {},
      script: '#!/bin/sh\necho good-cline\n',
      fields: [],
    },
  ];
}

/** The text of `doc` in the kind's syntax (TOML cannot hold null: callers leave null out for TOML). */
export function formatText(kind: FormatFileKind, doc: unknown): string {
  if (kind.syntax === 'script') return kind.script ?? '';
  if (kind.syntax === 'toml') return stringifyToml(doc as Record<string, unknown>);
  return JSON.stringify(doc, null, 2);
}

/** A deep copy of `doc` with the value at `path` replaced. */
export function withValue(doc: Record<string, unknown>, path: readonly JsonSegment[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(doc);
  let at: Record<string | number, unknown> = copy;
  for (const segment of path.slice(0, -1)) at = at[segment] as Record<string | number, unknown>;
  at[path[path.length - 1] as string | number] = value;
  return copy;
}

/** A value of each JSON type, to put where another type belongs. */
export const WRONG_VALUES: Readonly<Record<FieldType | 'null', unknown>> = {
  object: { a: 1 },
  array: ['x', 1],
  string: 'text',
  number: 7,
  boolean: true,
  null: null,
};
