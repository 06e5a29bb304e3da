import type { HookSource, HookSourceScope } from '../../configFiles/hookSource';
import type { ConfigDiagnostic } from '../../configFiles/configDiagnostic';
import { formatJsonPath } from '../../configFiles/jsonPath';
import type { PermissionRuleEntry } from '../../permissions/permissionRules';
import type { ClaudeSettingsContent } from './claudeSettingsReader';
import { parseConfigFile, type ParsedConfigFile } from './configFileParse';
import type { ClaudeSettingsFileInput, PluginRef } from './configSources';
import type { ConfigDocument } from './configDocumentReads';
import { hookApprovalKey } from './hookApproval';
import type { HookHandlerConfig } from './hookConfigSchema';
import type { RawHookEntry } from './hooksObjectReader';
import { withSwitchId } from './hookSwitches';
import type { LoadedHook } from './loadedHook';
import { substitutePluginVars } from './pluginHookSources';
import { readSettingsValue } from './settingsValueReader';
import type { FormatFileInput } from './configSources';
import type { FormatFileRead } from '../formats/formatFileRead';
import { hookFormatName } from '../formats/formatRegistry';

/** What a Claude settings file adds besides hooks, each part with its source. */
export interface SettingsFileContribution {
  readonly input: ClaudeSettingsFileInput;
  readonly content: ClaudeSettingsContent;
  readonly rules: PermissionRuleEntry[];
  readonly defaultMode?: { readonly value: string; readonly source: HookSource };
  readonly additionalDirectories: { path: string; source: HookSource; folder?: string }[];
}

/** What one document contributes; nothing is added to the configuration until all of it is read. */
export interface DocumentContribution {
  readonly hooks: LoadedHook[];
  readonly diagnostics: readonly ConfigDiagnostic[];
  /** Set for a Claude settings file. */
  readonly settings?: SettingsFileContribution;
}

type FileDocument = Extract<ConfigDocument, { readonly text: string | undefined }>;
type Extra = { folder?: string; agentType?: string; skill?: string };

const NOTHING: DocumentContribution = { hooks: [], diagnostics: [] };

/** Reads one document: its hooks as loaded hooks (with their source and id), its diagnostics, and a settings file's other settings. */
export function readDocumentContribution(doc: ConfigDocument): DocumentContribution {
  const { input } = doc;
  const folder = input.folder !== undefined ? { folder: input.folder } : {};
  if (input.kind === 'settingsValue') {
    const content = readSettingsValue(input);
    const file = input.file !== undefined ? { file: input.file } : {};
    const hooks = content.hooks.map((e) =>
      toLoadedHook(e, { kind: 'settings', scope: input.scope, ...file, jsonPath: formatJsonPath(e.path, 'hookwise.hooks') }, folder),
    );
    return { hooks, diagnostics: content.diagnostics };
  }
  if (!('text' in doc) || doc.text === undefined) return NOTHING;
  return readFileDocument(doc.input, doc.parsed ?? parseConfigFile(doc.input, doc.text), folder);
}

function readFileDocument(input: FileDocument['input'], parsed: ParsedConfigFile, folder: { folder?: string }): DocumentContribution {
  if (input.kind === 'formatFile' || parsed.kind === 'format')
    return parsed.kind === 'format' && input.kind === 'formatFile' ? readFormatDocument(input, parsed.content, folder) : NOTHING;
  const skillContent = parsed.kind === 'skill' ? parsed.content : undefined;
  // A plugin's skill is `<plugin>:<name>` (Claude Code's namespace), the name the Skill tool activates.
  const skillName = input.kind === 'skillFile' ? `${input.plugin ? `${input.plugin.name}:` : ''}${skillContent?.name ?? input.skill}` : undefined;
  const plugin = 'plugin' in input ? input.plugin : undefined;
  const fileSource = (jsonPath: string): HookSource => ({
    kind: 'file',
    scope: fileScope(input, plugin),
    file: input.file,
    displayFile: input.displayFile,
    jsonPath,
    ...(skillName !== undefined ? { skill: skillName } : {}),
    ...(plugin !== undefined ? { plugin } : {}),
  });
  // A plugin's hooks (its hooks.json, agents and skills) get `${CLAUDE_PLUGIN_ROOT}` filled in the command.
  const fromPlugin = (entries: readonly RawHookEntry[], extra: Extra): LoadedHook[] =>
    entries.map((e) => toLoadedHook(pluginVars(e, plugin), fileSource(formatJsonPath(e.path)), extra));
  if (input.kind === 'pluginHooksFile' && parsed.kind === 'settings') {
    // Same shape as a settings file's hooks (plus `description`); only `hooks` counts, a plugin cannot set permissions.
    const content = parsed.content;
    return { hooks: fromPlugin(content.hooks, folder), diagnostics: content.diagnostics };
  }
  if (parsed.kind === 'agent') {
    const content = parsed.content;
    const agent = content.agentType !== undefined ? { agentType: content.agentType } : {};
    return { hooks: fromPlugin(content.hooks, { ...folder, ...agent }), diagnostics: content.diagnostics };
  }
  if (skillContent !== undefined)
    return { hooks: fromPlugin(skillContent.hooks, { ...folder, skill: skillName ?? '' }), diagnostics: skillContent.diagnostics };
  if (input.kind !== 'claudeSettingsFile' || parsed.kind !== 'settings') return NOTHING;
  const content = parsed.content;
  const settings: SettingsFileContribution = {
    input,
    content,
    rules: content.permissionRules.map((r) => ({ behavior: r.behavior, rule: r.rule, source: fileSource(formatJsonPath(r.path)), ...folder })),
    ...(content.defaultMode !== undefined ? { defaultMode: { value: content.defaultMode, source: fileSource('permissions.defaultMode') } } : {}),
    additionalDirectories: content.additionalDirectories.map((dir, i) => ({
      path: dir,
      source: fileSource(`permissions.additionalDirectories[${i}]`),
      ...folder,
    })),
  };
  return { hooks: content.hooks.map((e) => toLoadedHook(e, fileSource(formatJsonPath(e.path)), folder)), diagnostics: content.diagnostics, settings };
}

/** The source scope of a file's hooks: a plugin's (project or not), an agent's or skill's (user or project), else the settings file's own. */
function fileScope(input: FileDocument['input'], plugin: PluginRef | undefined): HookSourceScope {
  if (plugin !== undefined || input.kind === 'pluginHooksFile') return input.folder !== undefined ? 'projectPlugin' : 'plugin';
  if (input.kind === 'agentFile') return input.scope === 'user' ? 'userAgent' : 'projectAgent';
  if (input.kind === 'skillFile') return input.scope === 'user' ? 'userSkill' : 'projectSkill';
  return input.scope;
}

function pluginVars<E extends { readonly handler: HookHandlerConfig }>(e: E, plugin: PluginRef | undefined): E {
  return plugin ? { ...e, handler: substitutePluginVars(e.handler, plugin) } : e;
}

/**
 * Another agent's file: each entry becomes a command hook on its Hookwise event, labelled with the
 * format (`Copilot .github/hooks/guard.json › hooks.preToolUse[0]`), carrying how that agent runs it.
 */
function readFormatDocument(input: FormatFileInput, content: FormatFileRead, folder: { folder?: string }): DocumentContribution {
  const hooks = content.hooks.map((entry): LoadedHook => {
    const source: HookSource = {
      kind: 'file',
      scope: input.scope,
      file: input.file,
      displayFile: input.displayFile,
      jsonPath: formatJsonPath(entry.path),
      format: hookFormatName(input.format),
    };
    const seconds = entry.binding.timeoutMs !== undefined ? { timeout: entry.binding.timeoutMs / 1000 } : {};
    const handler: HookHandlerConfig = { type: 'command', command: entry.command, ...seconds };
    const format = { binding: entry.binding, ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}), ...(entry.env !== undefined ? { env: entry.env } : {}) };
    const matcher = entry.binding.matcher !== undefined ? { matcher: entry.binding.matcher } : {};
    const subject = { event: entry.event, ...matcher, handler, ...folder };
    return {
      ...subject,
      source: withSwitchId(source, subject),
      format,
      hash: hookApprovalKey({ ...subject, format }),
    };
  });
  return { hooks, diagnostics: content.diagnostics };
}

function toLoadedHook(entry: RawHookEntry, source: HookSource, extra: Extra): LoadedHook {
  return {
    event: entry.event,
    ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}),
    handler: entry.handler,
    // The switch follows the hook, not its position: its id is computed from what it is (hookSwitches.ts).
    source: source.kind === 'code' ? source : withSwitchId(source, { ...entry, ...extra }),
    ...extra,
    hash: hookApprovalKey({ ...entry, ...extra }),
  };
}
