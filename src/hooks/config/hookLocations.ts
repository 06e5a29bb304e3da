import { findNodeAtLocation, getNodeValue, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { readAgentFileHooks } from './agentFileReader';
import { findExcessNesting } from '../../configFiles/configLimits';
import { DiagnosticSink } from '../../configFiles/diagnosticSink';
import type { HookHandlerConfig } from './hookConfigSchema';
import { readHooksObject } from './hooksObjectReader';
import { formatJsonPath, type JsonSegment } from '../../configFiles/jsonPath';
import { yamlLocator } from '../../configFiles/nodeLocator';
import { yamlLib } from '../../configFiles/yamlLib';
import { readSkillFileHooks } from './skillFileReader';
import { locateFormatHooks, type FormatDocument } from './formatHookLocations';
import type { HookEvent } from '../hookEvent';

/** Handlers located per document; more are not shown (a settings file with thousands of hooks is not written by hand). */
const MAX_LOCATED = 500;
/** Keys of the `hookwise.hooks` setting that are not events (the loader skips the same ones). */
const SETTINGS_KEYS: ReadonlySet<string> = new Set(['enabled', 'sources', 'disabled']);

/** A span of the document text (0-based offsets). */
export interface TextRange {
  readonly offset: number;
  readonly length: number;
}

/** One hook handler found in a settings text. */
export interface LocatedHook {
  /** The hook's place, as Hook Runs and diagnostics name it: `label › jsonPath` (its switch in `hookwise.hooks.disabled` names it by identity instead, hookSwitches.ts). */
  readonly id: string;
  /** Display JSON path, e.g. `hooks.PreToolUse[0].hooks[1]` or `hookwise.hooks.Stop[0].hooks[0]`. */
  readonly jsonPath: string;
  readonly event: HookEvent;
  /** Another agent's hook: the event as that agent names it (`preToolUse`, `BeforeTool`). */
  readonly nativeEvent?: string;
  readonly matcher?: string;
  readonly handler: HookHandlerConfig;
  /** The handler object. */
  readonly range: TextRange;
  /** The string value of `command`, `url` or `prompt` (with its quotes), for hovers and links. */
  readonly body?: TextRange & { readonly field: 'command' | 'url' | 'prompt' };
}

/** What kind of file the text is, which decides where its hooks object lives and how ids read. */
export interface HookDocumentKind {
  /** The source label ids start with, e.g. `.claude/settings.json`, `workspace settings`, `plugin x › hooks/hooks.json`. */
  readonly label: string;
  /**
   * `claude`: a `{"hooks": {...}}` file (settings, plugin hooks.json); `vscodeSettings`: the flat `hookwise.hooks`
   * key of a settings.json; `workspaceFile`: the same under `settings` of a .code-workspace; `agentFile` /
   * `skillFile`: the YAML frontmatter `hooks:` of an agent `.md` or a SKILL.md; `format`: another agent's hooks file, read by its adapter.
   */
  readonly shape: 'claude' | 'vscodeSettings' | 'workspaceFile' | 'agentFile' | 'skillFile' | 'format';
  /** With shape `format`: which agent's file it is and where. */
  readonly format?: FormatDocument;
}

/**
 * Every valid hook handler in a JSONC settings text with its id and range. Hooks are read by
 * the loader's own reader, so ids (`label › hooks.Event[i].hooks[j]`), aliases and skipped entries
 * are exactly the loader's; invalid handlers are left out (their diagnostics already say why).
 * Comments and trailing commas are allowed; a text nested too deeply gives nothing.
 */
export function locateHooks(text: string, kind: HookDocumentKind): LocatedHook[] {
  if (kind.shape === 'format') return kind.format !== undefined ? locateFormatHooks(text, kind.label, kind.format) : [];
  if (kind.shape === 'agentFile' || kind.shape === 'skillFile') return locateFrontmatterHooks(text, kind);
  if (findExcessNesting(text) !== undefined) return [];
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root) return [];
  const prefix: JsonSegment[] = kind.shape === 'claude' ? [] : kind.shape === 'vscodeSettings' ? ['hookwise.hooks'] : ['settings', 'hookwise.hooks'];
  const hooksNode = findNodeAtLocation(root, kind.shape === 'claude' ? ['hooks'] : prefix);
  if (!hooksNode) return [];
  const sink = new DiagnosticSink({ displayFile: kind.label });
  const entries =
    kind.shape === 'claude'
      ? readHooksObject(getNodeValue(hooksNode), ['hooks'], sink)
      : readHooksObject(getNodeValue(hooksNode), [], sink, { ignoreKeys: SETTINGS_KEYS });
  const pathRoot = kind.shape === 'claude' ? undefined : 'hookwise.hooks';
  const located: LocatedHook[] = [];
  for (const entry of entries.slice(0, MAX_LOCATED)) {
    const node = findNodeAtLocation(root, [...prefix, ...entry.path]);
    if (!node) continue;
    const jsonPath = formatJsonPath(entry.path, pathRoot);
    const body = bodyOf(node, entry.handler);
    located.push({
      id: `${kind.label} › ${jsonPath}`,
      jsonPath,
      event: entry.event,
      ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}),
      handler: entry.handler,
      range: { offset: node.offset, length: node.length },
      ...(body ? { body } : {}),
    });
  }
  return located;
}

/** The same for the YAML frontmatter of an agent file or SKILL.md, read by the loader's readers (agent `Stop` is `SubagentStop`). */
function locateFrontmatterHooks(text: string, kind: HookDocumentKind): LocatedHook[] {
  const where = { file: '', displayFile: kind.label };
  // One read gives the hooks and the parsed YAML they are located in.
  const { frontmatter, hooks: entries } = kind.shape === 'agentFile' ? readAgentFileHooks(text, where) : readSkillFileHooks(text, where);
  if (!frontmatter || !frontmatter.yaml.ok) return [];
  const locator = yamlLocator(frontmatter.yaml.doc, frontmatter.yamlOffset);
  const { isScalar } = yamlLib();
  return entries.slice(0, MAX_LOCATED).flatMap((entry): LocatedHook[] => {
    const range = locator.locate(entry.path);
    if (!range) return [];
    const jsonPath = formatJsonPath(entry.path);
    const { handler } = entry;
    const field = bodyField(handler);
    // A handler written as a bare string is its own command; else the field's scalar, when written.
    const doc = frontmatter.yaml.ok ? frontmatter.yaml.doc : undefined; // (narrowed above; closures forget it)
    const bodyPath = isScalar(doc?.getIn(entry.path, true)) ? entry.path : [...entry.path, field ?? ''];
    const bodySpan = field !== undefined && isScalar(doc?.getIn(bodyPath, true)) ? locator.locate(bodyPath) : undefined;
    return [
      {
        id: `${kind.label} › ${jsonPath}`,
        jsonPath,
        event: entry.event,
        ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}),
        handler,
        range,
        ...(field !== undefined && bodySpan !== undefined ? { body: { field, ...bodySpan } } : {}),
      },
    ];
  });
}

/** The `command` / `url` / `prompt` string of a handler node (a bare string handler is its own command). */
function bodyOf(node: JsonNode, handler: HookHandlerConfig): LocatedHook['body'] {
  if (node.type === 'string') return { field: 'command', offset: node.offset, length: node.length };
  const field =
    handler.type === 'command' ? 'command' : handler.type === 'http' ? 'url' : handler.type === 'prompt' || handler.type === 'agent' ? 'prompt' : undefined;
  if (field === undefined) return undefined;
  const value = findNodeAtLocation(node, [field]);
  return value?.type === 'string' ? { field, offset: value.offset, length: value.length } : undefined;
}

/** The field a hover and links attach to: what the handler runs or asks. */
function bodyField(handler: HookHandlerConfig): 'command' | 'url' | 'prompt' | undefined {
  return handler.type === 'command'
    ? 'command'
    : handler.type === 'http'
      ? 'url'
      : handler.type === 'prompt' || handler.type === 'agent'
        ? 'prompt'
        : undefined;
}
