import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderRuntime } from '../support/builtinProviderRuntime';
import { requestText, startProviderRuntime } from '../support/builtinProviderRuntime';
import type { CliWorkspace } from '../support/cliHarness';
import { makeCliWorkspace } from '../support/cliHarness';
import { jsonLinesOf, recordTo, writeHookScript } from '../support/lifecycleHarness';
import { isBuiltinHookRun } from '../../src/vscode/tree/builtinHooks';
import type { ScriptedReply } from '../support/openAiTestServer';
import { textReply, toolCallsReply } from '../support/openAiTestServer';

// Lazy memory loading as the built-in provider "built-in memory", on the real runtime with command
// hooks from the workspace's settings and the local OpenAI-compatible server as the model: on by
// default (a built-in run in Hook Runs), unaffected by another PostToolUse hook's block, switched
// off through `hookwise.hooks.disabled`, and replaced by a provider of one's own.

let w: CliWorkspace;
let r: ProviderRuntime | undefined;
let log: string;
beforeEach(async () => {
  w = await makeCliWorkspace();
  await w.write('packages/api/CLAUDE.md', 'API: never log tokens.');
  await w.write('packages/api/src/server.ts', 'export const port = 1;');
  await w.write('.claude/rules/typescript.md', '---\npaths:\n  - "packages/**/*.ts"\n---\nTS: no any.');
  log = path.join(w.ws, 'events.jsonl');
});
afterEach(async () => {
  await r?.close();
  r = undefined;
  await w.cleanup();
});

const signal = (): AbortSignal => new AbortController().signal;
const READ = toolCallsReply([{ name: 'Read', arguments: { file_path: 'packages/api/src/server.ts' } }]);

/** InstructionsLoaded and PostToolUse recorded to one log, in the order they fired; `block` adds a PostToolUse hook that blocks. */
async function hooks(o: { block?: boolean } = {}): Promise<void> {
  const record = await writeHookScript(w, 'record', recordTo(log));
  const block = await writeHookScript(w, 'block', `${recordTo(log)}\nprocess.stdout.write(JSON.stringify({ decision: 'block', reason: 'READ-BLOCKED' }));`);
  await w.settings({
    hooks: {
      InstructionsLoaded: [{ hooks: [{ type: 'command', command: record }] }],
      PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: o.block ? block : record }] }],
    },
  });
}

async function start(script: readonly ScriptedReply[], disabled?: readonly string[]): Promise<ProviderRuntime> {
  r = await startProviderRuntime(w, script, disabled ? { disabled } : {});
  await r.session.start('startup', signal());
  return r;
}

/** What the log recorded: `event` or `event:load_reason:file`, in order. */
function logged(): string[] {
  if (!existsSync(log)) return [];
  return jsonLinesOf(log).map((e) =>
    e.hook_event_name === 'InstructionsLoaded'
      ? `InstructionsLoaded:${String(e.load_reason)}:${path.relative(w.ws, String(e.file_path))}`
      : String(e.hook_event_name),
  );
}

describe('lazy memory loading is the built-in provider "built-in memory"', () => {
  it('on by default: a Read loads the folder CLAUDE.md and the matching rule after the PostToolUse hooks; its run is a built-in one', async () => {
    await hooks();
    const p = await start([READ, textReply('done')]);
    await p.session.submit('look at the api', signal());
    expect(requestText(p.server.requests[1])).toContain('API: never log tokens.');
    expect(requestText(p.server.requests[1])).toContain('TS: no any.');
    expect(logged()).toEqual([
      'PostToolUse',
      'InstructionsLoaded:nested_traversal:packages/api/CLAUDE.md',
      'InstructionsLoaded:path_glob_match:.claude/rules/typescript.md',
    ]);
    const run = p.runs.find((x) => x.hookId === 'builtin.memory');
    expect(run).toMatchObject({ event: 'PostToolUse', status: 'ok', hookLabel: 'built-in: memory', source: { kind: 'code', label: 'built-in memory' } });
    expect(isBuiltinHookRun(run!)).toBe(true);
  });

  it("another PostToolUse hook's block does not stop it: the block reaches the model and so does the memory", async () => {
    await hooks({ block: true });
    const p = await start([READ, textReply('done')]);
    await p.session.submit('look at the api', signal());
    expect(requestText(p.server.requests[1])).toContain('READ-BLOCKED');
    expect(requestText(p.server.requests[1])).toContain('API: never log tokens.');
    expect(logged()).toEqual([
      'PostToolUse',
      'InstructionsLoaded:nested_traversal:packages/api/CLAUDE.md',
      'InstructionsLoaded:path_glob_match:.claude/rules/typescript.md',
    ]);
  });

  it('switched off (hookwise.hooks.disabled: "built-in memory"): no nested memory for a Read or an attached file, no InstructionsLoaded; back on, it loads', async () => {
    await hooks();
    const p = await start([READ, textReply('done'), textReply('attached'), READ, textReply('done')], ['built-in memory']);
    expect(p.runtime.builtins.off).toEqual(['built-in memory']);
    await p.session.submit('look at the api', signal());
    await p.session.submit('and this file?', signal(), [], [path.join(w.ws, 'packages/api/src/server.ts')]);
    for (const i of [1, 2]) expect(requestText(p.server.requests[i])).not.toContain('API: never log tokens.');
    expect(logged()).toEqual(['PostToolUse']);
    expect(p.runs.some((x) => x.hookId === 'builtin.memory')).toBe(false);

    // The Enable action removes the switch: the next configuration installs the provider again.
    await p.reload();
    await p.session.submit('look again', signal());
    expect(requestText(p.server.requests[4])).toContain('API: never log tokens.');
    expect(logged()).toContain('InstructionsLoaded:nested_traversal:packages/api/CLAUDE.md');
  });

  it('replaced: with the built-in off, a provider of one’s own installed by hooks.use adds its memory instead', async () => {
    await hooks();
    const p = await start([READ, textReply('done')], ['built-in memory']);
    const installed = p.runtime.hooks.use({
      name: 'my memory',
      registerHooks(h) {
        h.onPostToolUse((ctx) => ({ additionalContext: `MY MEMORY for ${String((ctx.tool_input as { file_path?: unknown }).file_path)}` }), {
          matcher: 'Read',
        });
      },
    });
    await p.session.submit('look at the api', signal());
    installed.dispose();
    expect(requestText(p.server.requests[1])).toContain('MY MEMORY for packages/api/src/server.ts');
    expect(requestText(p.server.requests[1])).not.toContain('API: never log tokens.');
    expect(logged()).toEqual(['PostToolUse']);
    expect(p.runs.find((x) => x.source.kind === 'code' && x.source.label === 'my memory')).toMatchObject({ event: 'PostToolUse', status: 'ok' });
  });
});
