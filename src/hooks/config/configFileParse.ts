import { readAgentFileText, type AgentFileContent } from './agentFileReader';
import { readClaudeSettingsText, type ClaudeSettingsContent } from './claudeSettingsReader';
import type { AgentFileInput, ClaudeSettingsFileInput, FormatFileInput, PluginHooksFileInput, SkillFileInput } from './configSources';
import { readFormatFileText, type FormatFileRead } from '../formats/formatFileRead';
import { readSkillFileText, type SkillFileContent } from './skillFileReader';

/** A hook configuration file the loader reads as text (settings, plugin hooks, agent and skill files). */
export type ConfigFileInput = ClaudeSettingsFileInput | PluginHooksFileInput | AgentFileInput | SkillFileInput | FormatFileInput;

/** One file's text as its reader understood it: a settings-shaped file (settings, plugin hooks), an agent or a skill file. */
export type ParsedConfigFile =
  | { readonly kind: 'settings'; readonly content: ClaudeSettingsContent }
  | { readonly kind: 'agent'; readonly content: AgentFileContent }
  | { readonly kind: 'skill'; readonly content: SkillFileContent }
  | { readonly kind: 'format'; readonly content: FormatFileRead };

/**
 * Parses `text` as the file `input` with the reader of its kind. The loader calls this once per
 * text in a load: the result decides whether the file is broken, gives the plugin loader its
 * `enabledPlugins` and gives the hooks, so nothing parses the same text twice.
 */
export function parseConfigFile(input: ConfigFileInput, text: string): ParsedConfigFile {
  const where = { file: input.file, displayFile: input.displayFile };
  if (input.kind === 'agentFile') return { kind: 'agent', content: readAgentFileText(text, where) };
  if (input.kind === 'skillFile') return { kind: 'skill', content: readSkillFileText(text, where) };
  if (input.kind === 'formatFile') return { kind: 'format', content: readFormatFileText(input.format, text, { ...where, scope: input.scope }) };
  return { kind: 'settings', content: readClaudeSettingsText(text, where) };
}
