import { parseTree } from 'jsonc-parser';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { findExcessNesting } from '../../configFiles/configLimits';
import type { SettingsValueInput } from './configSources';
import { DiagnosticSink } from '../../configFiles/diagnosticSink';
import { readHooksObject, type RawHookEntry } from './hooksObjectReader';
import { jsoncLocator } from '../../configFiles/nodeLocator';

/** `hookwise.hooks` keys that configure the loader, not events. */
const IGNORED_SETTINGS_KEYS: ReadonlySet<string> = new Set(['enabled', 'sources', 'disabled']);
/** How diagnostics name each VS Code settings scope. */
export const SETTINGS_LABELS = { user: 'user settings', workspace: 'workspace settings', workspaceFolder: 'folder settings' } as const;

/**
 * The hook entries of a `hookwise.hooks` settings value, with diagnostics located in the
 * settings text when there is one (its `enabled`/`sources`/`disabled` keys are not hooks).
 */
export function readSettingsValue(input: SettingsValueInput): { hooks: RawHookEntry[]; diagnostics: ConfigDiagnostic[] } {
  // The text only locates diagnostics; a too-deep one would overflow the parser, so it is not located.
  const root = input.text !== undefined && findExcessNesting(input.text) === undefined ? parseTree(input.text, [], { allowTrailingComma: true }) : undefined;
  const sink = new DiagnosticSink({
    ...(input.file !== undefined ? { file: input.file } : {}),
    displayFile: SETTINGS_LABELS[input.scope],
    ...(input.text !== undefined ? { text: input.text } : {}),
    locator: jsoncLocator(root, input.textPath ?? ['hookwise.hooks']),
    pathRoot: 'hookwise.hooks',
  });
  const hooks = readHooksObject(input.value, [], sink, { ignoreKeys: IGNORED_SETTINGS_KEYS });
  return { hooks, diagnostics: sink.diagnostics };
}
