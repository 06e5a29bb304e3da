import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { HookwiseRuntime } from '../runtime/hookwiseRuntime';
import { formatConfigDiagnostic } from '../configFiles/configDiagnostic';
import { readBoundedTextFile } from '../configFiles/configFileSystem';
import type { HookConfig } from '../hooks/config/hookConfigLoader';
import { hookSwitchId } from '../hooks/config/hookSwitches';
import { formatPluginProblem, loadCliConfigWithPlugins } from './cliConfig';
import { FileLastGoodStore } from './lastGoodFiles';
import { hooksForCwd, type LoadedHook } from '../hooks/config/loadedHook';
import { lintHooks } from '../hooks/lint/hookLint';
import { explainHooks, handlerText } from '../hooks/explain/explainHooks';
import { checkExpectations, fillTestInput, observedDecision } from '../hooks/explain/hookTestCase';
import { loadHookTestCase } from '../hooks/explain/loadHookTestCase';
import { HOOK_EVENTS, isHookEvent, TOOL_EVENTS } from '../hooks/hookEvent';
import { closestName } from '../configFiles/configDiagnostic';
import { outcomeWord } from '../hooks/hookRunStats';
import type { HookEventResult } from '../hooks/hookRunTypes';
import { describeSource, isManagedPluginSource, MANAGED_PLUGIN_NOTE } from '../configFiles/hookSource';
import type { ModelClient } from '../model/modelClient';
import { OpenAiModelClient } from '../model/openAiModelClient';
import { killLiveProcessGroups } from '../shared/processGroups';
import { thrownMessage } from '../shared/describeThrown';
import type { CliIo } from './runCli';
import { runConvert } from './hooksConvertCommand';

/** `hookwise hooks …` usage. */
export const HOOKS_USAGE = `Usage:
  hookwise hooks list [--json] [--cwd DIR] [--settings FILE] [--plugin-dir DIR]…
      the effective hooks, in run order per event, with their sources
  hookwise hooks explain --event EVENT [--tool NAME] [--input JSON] [--run] [--json] [--cwd DIR] [--plugin-dir DIR]…
      every hook of EVENT and whether it would run for this tool and tool_input, and why
      (for an event without a tool, --input is the event's own fields: {"llm_response": …});
      --run then runs the matching hooks on that input and prints each one's decision
  hookwise hooks test [PATH…] [--cwd DIR] [--json] [--plugin-dir DIR]…
      runs saved hook tests (default: DIR/.hookwise/hook-tests/*.json) through the real
      hooks; one line per case, then "N passed, N failed"; exit 1 on any failure
  hookwise hooks convert FILE [--write] [--json] [--cwd DIR]
      the .claude/settings.json entries the hooks of another agent's FILE (.codex/hooks.json,
      .github/hooks/x.json, …) convert to with exactly the same behaviour, and what does not
      convert and why; --write merges them into DIR/.claude/settings.json (comments kept, no
      entry twice)

Installed plugins enabled in the settings files count, as in a -p run; --plugin-dir (repeatable)
adds a local plugin root, as it does for -p.

list, explain and convert run no hook (explain --run does). Exit codes: 0 ok, 1 a test failed, 2 bad usage.`;

const OPTIONS = {
  json: { type: 'boolean' },
  cwd: { type: 'string' },
  settings: { type: 'string' },
  'plugin-dir': { type: 'string', multiple: true },
  event: { type: 'string' },
  tool: { type: 'string' },
  input: { type: 'string' },
  run: { type: 'boolean' },
  write: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs `hookwise hooks <sub> …` (argv after `hooks`); returns the exit code. */
export async function runHooksCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return usage(io, thrownMessage(error));
  }
  const [sub, ...paths] = parsed.positionals;
  const { values } = parsed;
  if (values.help || sub === undefined) {
    io.stdout(`${HOOKS_USAGE}\n`);
    return sub === undefined && !values.help ? 2 : 0;
  }
  const cwd = path.resolve(values.cwd ?? process.cwd());
  if (!existsSync(cwd)) return usage(io, `--cwd ${cwd} does not exist`);
  const homeDir = io.env.HOME ?? os.homedir();
  // Converting reads one file and needs no configuration loaded.
  if (sub === 'convert') {
    if (paths.length !== 1) return usage(io, `hooks convert takes one file, got ${paths.length === 0 ? 'none' : paths.join(' ')}`);
    return runConvert(paths[0] as string, { cwd, homeDir, write: values.write === true, json: values.json === true }, io);
  }
  if (values.write === true) return usage(io, '--write belongs to hooks convert');
  // The hooks that would run: a broken file's last good copy, as `hookwise -p` uses it (the diagnostics say so).
  const { config, problems } = await loadCliConfigWithPlugins(
    cwd,
    homeDir,
    values.settings,
    values['plugin-dir'] ?? [],
    FileLastGoodStore.forProject(cwd, io.env),
  );
  for (const p of problems) io.stderr(`hookwise: ${formatPluginProblem(p)}\n`);
  for (const d of config.diagnostics) io.stderr(`hookwise: ${formatConfigDiagnostic(d)}\n`);
  switch (sub) {
    case 'list':
      if (paths.length > 0) return usage(io, `hooks list takes no arguments, got ${paths.join(' ')}`);
      return list(config, cwd, homeDir, values.json === true, io);
    case 'explain':
      return explain(config, cwd, homeDir, values, io);
    case 'test':
      return runTests(config, cwd, homeDir, paths, values.json === true, io);
    default:
      return usage(io, `unknown hooks command "${sub}" (list, explain, test, convert)`);
  }
}

function usage(io: CliIo, message: string): number {
  io.stderr(`hookwise: ${message}\n\n${HOOKS_USAGE}\n`);
  return 2;
}

async function list(config: HookConfig, cwd: string, homeDir: string, json: boolean, io: CliIo): Promise<number> {
  if (config.disabled) io.stderr(`hookwise: hooks are disabled by ${config.disabledBy.join(', ')}\n`);
  else if (config.projectHooksOffBy) io.stderr(`hookwise: the project's hooks are disabled by ${config.projectHooksOffBy.join(', ')}; the user's still run\n`);
  const effective = hooksForCwd(config.hooks, cwd);
  // Lint goes to stderr with the load diagnostics, so `--json` stdout stays JSON only.
  for (const d of await lintHooks(effective, { projectDir: cwd, homeDir, textOf: await readSourceTexts(effective) }))
    io.stderr(`hookwise: ${formatConfigDiagnostic(d)}\n`);
  const hooks = effective.map((h) => ({
    event: h.event,
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    type: h.handler.type,
    command: handlerText(h),
    ...(h.handler.timeout !== undefined ? { timeout: h.handler.timeout } : {}),
    ...(h.agentType !== undefined ? { agentType: h.agentType } : {}),
    source: describeSource(h.source),
    // The id hookwise.hooks.disabled and --disable-hook name it by.
    id: hookSwitchId(h),
    ...(isManagedPluginSource(h.source) ? { note: MANAGED_PLUGIN_NOTE } : {}),
  }));
  if (json) {
    io.stdout(`${JSON.stringify(hooks, null, 2)}\n`);
    return 0;
  }
  if (hooks.length === 0) io.stdout('No hooks configured.\n');
  for (const h of hooks)
    io.stdout(
      `${h.event}${h.matcher ? ` [${h.matcher}]` : ''}${h.agentType ? ` (agent ${h.agentType})` : ''} ${h.type}: ${h.command} — ${h.source}${h.note ? ` (${h.note})` : ''}\n`,
    );
  return 0;
}

/** The texts of the files `hooks` come from, so lint warnings carry a line. */
async function readSourceTexts(hooks: readonly LoadedHook[]): Promise<(file: string) => string | undefined> {
  const texts = new Map<string, string>();
  for (const h of hooks) {
    if (h.source.kind !== 'file' || texts.has(h.source.file)) continue;
    const text = await readBoundedTextFile(h.source.file).catch(() => undefined);
    if (text !== undefined) texts.set(h.source.file, text);
  }
  return (file) => texts.get(file);
}

async function explain(
  config: HookConfig,
  cwd: string,
  homeDir: string,
  values: { event?: string; tool?: string; input?: string; json?: boolean; run?: boolean },
  io: CliIo,
): Promise<number> {
  const event = values.event;
  if (event === undefined) return usage(io, 'hooks explain needs --event EVENT');
  if (!isHookEvent(event)) return usage(io, unknownEventMessage(event));
  let toolInput: unknown = {};
  if (values.input !== undefined) {
    try {
      toolInput = JSON.parse(values.input);
    } catch (error) {
      return usage(io, `--input is not JSON: ${thrownMessage(error)}`);
    }
    if (typeof toolInput !== 'object' || toolInput === null || Array.isArray(toolInput))
      return usage(io, "--input must be a JSON object (the tool_input, or the event's own fields for an event without a tool)");
  }
  // A tool event's --input is its tool_input; any other event's is its own fields (`llm_response`, `prompt`, …).
  const fields = TOOL_EVENTS.has(event) ? { tool_input: toolInput } : (toolInput as Record<string, unknown>);
  const input = { ...fields, hook_event_name: event, cwd, ...(values.tool !== undefined ? { tool_name: values.tool } : {}) };
  const rows = explainHooks(config, { event, input, cwd, trust: { trusted: true } });
  const result =
    values.run === true
      ? await withHookRuntime(config, cwd, homeDir, io, (runtime) =>
          runtime.runner.run(event, fillTestInput({ name: 'explain', event, input, expect: {} }, cwd), { signal: io.signal, cwd }),
        )
      : undefined;
  if (values.json === true) {
    io.stdout(`${JSON.stringify(result === undefined ? rows : { hooks: rows, run: runSummary(result) }, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) io.stdout(`No hooks are configured for ${event}.\n`);
  for (const r of rows) io.stdout(`${r.outcome === 'would run' ? 'would run' : 'skipped  '}  ${r.command} — ${r.source}\n           ${r.reason}\n`);
  if (result !== undefined) io.stdout(runText(result));
  return 0;
}

/** `--event` names no event: the closest event name when one is near, else the list. */
function unknownEventMessage(event: string): string {
  const close = closestName(event, HOOK_EVENTS);
  return `--event ${event} is not a hook event name${close !== undefined ? ` — did you mean ${close}?` : `; events: ${HOOK_EVENTS.join(', ')}`}`;
}

/** What `explain --run` saw, as data: each hook that ran and the merged decision. */
function runSummary(result: HookEventResult): {
  decision: string;
  reason?: string;
  hooks: { hook: string; source: string; outcome: string; durationMs?: number; changed?: string }[];
} {
  return {
    decision: observedDecision(result),
    ...(result.reason !== undefined ? { reason: result.reason } : {}),
    hooks: result.records.map((r) => ({
      hook: r.hookLabel,
      source: describeSource(r.source),
      outcome: outcomeWord(r),
      ...(r.durationMs !== undefined ? { durationMs: r.durationMs } : {}),
      ...(r.effect !== undefined ? { changed: r.effect } : {}),
    })),
  };
}

function runText(result: HookEventResult): string {
  const summary = runSummary(result);
  const lines = summary.hooks.map(
    (h) =>
      `ran        ${h.hook} — ${h.source}\n           ${h.outcome}${h.durationMs !== undefined ? ` (${Math.round(h.durationMs)} ms)` : ''}\n` +
      (h.changed !== undefined ? `           changed: ${h.changed}\n` : ''),
  );
  if (summary.hooks.length === 0) lines.push('No hook ran.\n');
  lines.push(`decision: ${summary.decision}${summary.reason !== undefined ? ` — ${summary.reason}` : ''}\n`);
  return lines.join('');
}

/**
 * Runs `fn` with a runtime holding `config` as a trusted workspace would (the user asked for this
 * run), then waits for background hooks and kills what they left running.
 */
async function withHookRuntime<T>(config: HookConfig, cwd: string, homeDir: string, io: CliIo, fn: (runtime: HookwiseRuntime) => Promise<T>): Promise<T> {
  const runtime = new HookwiseRuntime({ projectDir: cwd, homeDir, model: testModel(io.env), transcriptDir: path.join(os.tmpdir(), 'hookwise-hook-tests') });
  const applied = runtime.applyConfig(config, { trusted: true });
  for (const p of applied.problems) io.stderr(`hookwise: hook at ${describeSource(p.hook.source)} is off: ${p.message}\n`);
  try {
    return await fn(runtime);
  } finally {
    await runtime.runner.settleBackground();
    killLiveProcessGroups();
  }
}

async function runTests(config: HookConfig, cwd: string, homeDir: string, paths: readonly string[], json: boolean, io: CliIo): Promise<number> {
  const files = paths.length > 0 ? paths.map((p) => path.resolve(cwd, p)) : await defaultTestFiles(cwd);
  if (files.length === 0) {
    io.stderr(`hookwise: no hook tests found in ${path.join(cwd, '.hookwise', 'hook-tests')}\n`);
    return 1;
  }
  let passed = 0;
  let failed = 0;
  const results: { name: string; file: string; passed: boolean; decision?: string; problems: string[] }[] = [];
  await withHookRuntime(config, cwd, homeDir, io, async (runtime) => {
    for (const file of files) {
      const loaded = await loadHookTestCase(file);
      if (typeof loaded === 'string') {
        failed++;
        results.push({ name: path.basename(file), file, passed: false, problems: [loaded] });
        if (!json) io.stdout(`✗ ${path.basename(file)}: ${loaded}\n`);
        continue;
      }
      const result = await runtime.runner.run(loaded.event, fillTestInput(loaded, cwd), { signal: io.signal, cwd });
      const problems = checkExpectations(loaded, result);
      const ok = problems.length === 0;
      if (ok) passed++;
      else failed++;
      results.push({ name: loaded.name, file, passed: ok, decision: observedDecision(result), problems });
      if (!json) io.stdout(`${ok ? '✓' : '✗'} ${loaded.name}${ok ? '' : `\n    ${problems.join('\n    ')}`}\n`);
    }
  });
  if (json) io.stdout(`${JSON.stringify({ passed, failed, results }, null, 2)}\n`);
  else io.stdout(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

async function defaultTestFiles(cwd: string): Promise<string[]> {
  const dir = path.join(cwd, '.hookwise', 'hook-tests');
  try {
    return (await readdir(dir))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

/** Prompt and agent hooks in a test use HOOKWISE_MODEL at OPENAI_BASE_URL; without one they fail with a clear message. */
function testModel(env: NodeJS.ProcessEnv): ModelClient {
  if (env.HOOKWISE_MODEL) return new OpenAiModelClient({ model: env.HOOKWISE_MODEL, ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}) });
  return {
    label: 'no model',
    // eslint-disable-next-line require-yield
    async *stream() {
      throw new Error('hook tests run without a model: set HOOKWISE_MODEL (and OPENAI_BASE_URL) for prompt and agent hooks');
    },
  };
}
