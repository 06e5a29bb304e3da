import { describeSource } from '../../configFiles/hookSource';
import { describeApprovalChanges, type ApprovedHookRecord } from './approvalChanges';
import { canonicalJson } from './hookApproval';
import type { HookHandlerConfig } from './hookConfigSchema';
import { describeLoadedHook, type LoadedHook } from './loadedHook';

/**
 * What a person approving project hooks reads (docs/security.md): every hook, each with every
 * field that can move data out — an http hook's URL, its headers with the environment variables
 * each would expand, `allowedEnvVars` — and the files its approval pins. Pure text; the VS
 * Code side shows the summary in the modal and the full review in a scrollable document.
 */

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * `text` on one line with nothing hidden: line breaks, control characters and bidi overrides as
 * `\n` / `\uXXXX`, so a hostile field cannot draw a fake hook (`…\n## 2. … allowed`) into the
 * review or reorder what a reader sees.
 */
export function visible(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g, (ch) =>
    ch === '\n' ? '\\n' : ch === '\t' ? '\\t' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Names of the environment variables `text` refers to (`$X`, `${X}`, `${X:-default}`), in order, once each. */
export function envVarNames(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(ENV_REF)) names.add((m[1] ?? m[2]) as string);
  return [...names];
}

/**
 * The fields of `handler` that say where data goes or what runs, one line each:
 * `header Authorization: Bearer $TOKEN (sends $TOKEN)`. For http hooks, a variable not in
 * `allowedEnvVars` is marked as sent empty.
 */
export function handlerDataFields(handler: HookHandlerConfig): string[] {
  return rawDataFields(handler).map(visible);
}

function rawDataFields(handler: HookHandlerConfig): string[] {
  switch (handler.type) {
    case 'http': {
      const allowed = new Set(handler.allowedEnvVars ?? []);
      const lines = [`url: ${handler.url}`];
      for (const [name, value] of Object.entries(handler.headers ?? {})) {
        const vars = envVarNames(value);
        const sends = vars.map((v) => (allowed.has(v) ? `$${v}` : `$${v} (not in allowedEnvVars: sent empty)`));
        lines.push(`header ${name}: ${value}${sends.length > 0 ? ` — sends ${sends.join(', ')}` : ''}`);
      }
      if (handler.allowedEnvVars !== undefined)
        lines.push(`allowedEnvVars: ${handler.allowedEnvVars.length > 0 ? handler.allowedEnvVars.join(', ') : '(none)'} (narrowed by httpHookAllowedEnvVars)`);
      return lines;
    }
    case 'command': {
      const lines = [`command: ${handler.command}`];
      if (handler.args !== undefined) lines.push(`args: ${canonicalJson(handler.args)}`);
      if (handler.shell !== undefined) lines.push(`shell: ${handler.shell}`);
      return lines;
    }
    case 'mcp_tool':
      return [`MCP tool: ${handler.server} › ${handler.tool}`, ...(handler.input !== undefined ? [`input: ${canonicalJson(handler.input)}`] : [])];
    case 'prompt':
    case 'agent':
      return [`prompt: ${handler.prompt}`, ...(handler.model !== undefined ? [`model: ${handler.model}`] : [])];
  }
}

/** Short form of what an http hook sends, for one modal line: ` — headers Authorization ($TOKEN)`; '' for other hooks. */
export function dataSummary(handler: HookHandlerConfig): string {
  if (handler.type !== 'http') return '';
  const headers = Object.entries(handler.headers ?? {}).map(([name, value]) => {
    const vars = envVarNames(value);
    return vars.length > 0 ? `${name} (${vars.map((v) => `$${v}`).join(', ')})` : name;
  });
  const allowed = handler.allowedEnvVars !== undefined ? `; allowedEnvVars: ${handler.allowedEnvVars.join(', ') || '(none)'}` : '';
  return headers.length > 0 || allowed !== '' ? ` — headers: ${headers.join(', ') || '(none)'}${allowed}` : '';
}

/** One modal line per hook: its description, what it sends, and what changed since an earlier approval. */
export function hookSummaryLine(hook: LoadedHook, mark: string, changes: readonly string[]): string {
  return `${mark}${visible(describeLoadedHook(hook) + dataSummary(hook.handler))}${changes.length > 0 ? `\n    changed since approved: ${changes.join('; ')}` : ''}`;
}

/** A fenced block that the content cannot close (a fence longer than any backtick run in it). */
export function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}

/**
 * The full review, as markdown: every hook in `hooks` (none left out), numbered, with its
 * event, matcher, scope and source, every data field, the other handler fields, the pinned files
 * and what changed since an earlier approval (`records`). `approved` marks hooks already allowed.
 */
export function hookReviewMarkdown(
  title: string,
  hooks: readonly LoadedHook[],
  approved?: ReadonlySet<string>,
  records: readonly ApprovedHookRecord[] = [],
): string {
  const out = [
    `# ${title}`,
    '',
    `${hooks.length} hook${hooks.length === 1 ? '' : 's'}, all listed below. Each field that can send data or run code is shown in full.`,
    '',
  ];
  for (const [i, hook] of hooks.entries()) {
    const state = approved === undefined ? '' : approved.has(hook.hash) ? ' — allowed' : ' — off';
    const scope = hook.agentType !== undefined ? ` (agent ${hook.agentType})` : hook.skill !== undefined ? ` (skill ${hook.skill})` : '';
    const matcher = hook.matcher !== undefined && hook.matcher !== '' ? ` [${hook.matcher}]` : '';
    out.push(visible(`## ${i + 1}. ${hook.event}${matcher}${scope}: ${hook.handler.type}${state}`), '', visible(`- from: ${describeSource(hook.source)}`));
    const { type: _type, ...rest } = hook.handler as Readonly<Record<string, unknown>>;
    const shown = new Set(['command', 'args', 'shell', 'url', 'headers', 'allowedEnvVars', 'server', 'tool', 'input', 'prompt', 'model']);
    const others = Object.entries(rest).filter(([k]) => !shown.has(k));
    if (others.length > 0) out.push(visible(`- settings: ${others.map(([k, v]) => `${k} ${canonicalJson(v)}`).join(', ')}`));
    for (const pin of hook.scripts ?? [])
      out.push(
        `- pins ${pin.path}: ${pin.digest === 'missing' ? 'missing (creating it asks again)' : pin.digest.slice(0, 19)}${pin.target ? ` → ${pin.target}` : ''}`,
      );
    const changes = approved?.has(hook.hash) ? [] : describeApprovalChanges(hook, records);
    if (changes.length > 0) out.push(visible(`- changed since approved: ${changes.join('; ')}`));
    out.push('', fenced(handlerDataFields(hook.handler).join('\n')), '');
  }
  return out.join('\n');
}
