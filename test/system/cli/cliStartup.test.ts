import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import { parseJsonResult, runCliProcess } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

const suite = useCliSuite();

/** Node's lazily loaded parts the CLI loads only when a run uses them: undici (Node's fetch, a third of an empty run's start-up) and https. */
const FETCH_AND_TLS = /undici|NativeModule (https|tls)$/;
/** Built-ins an answer without tools never needs (0.2–0.9 ms of CPU each to set up). */
const UNUSED_BUILTINS = /NativeModule (child_process|zlib|worker_threads|readline)$/;

/** Runs the CLI with a preload that writes, at exit, which modules matching `watched` the process loaded. */
async function runRecordingLoads(args: readonly string[], watched = FETCH_AND_TLS): Promise<{ code: number | null; result: unknown; loaded: string[] }> {
  const preload = path.join(suite.w.base, 'record-loads.cjs');
  const record = path.join(suite.w.base, 'loads.json');
  writeFileSync(
    preload,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.moduleLoadList.filter((m) => ${watched.toString()}.test(m)))));\n`,
  );
  const out = await runCliProcess(suite.cli, suite.w, args, { NODE_OPTIONS: `--require ${preload}` });
  return { code: out.code, result: parseJsonResult(out), loaded: JSON.parse(readFileSync(record, 'utf8')) as string[] };
}

describe('hookwise -p start-up loads only what the run uses', () => {
  it("a session with a local (http) model answers without loading Node's fetch (undici) or https", async () => {
    const s = await suite.serve([toolCallsReply([{ name: 'Read', arguments: { file_path: 'notes.txt' } }]), textReply('The notes say hi.')]);
    await suite.w.write('notes.txt', 'hi');

    const run = await runRecordingLoads(['-p', 'read my notes', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', '4']);

    expect(run.code).toBe(0);
    expect(run.result).toMatchObject({ result: 'The notes say hi.', is_error: false });
    expect(s.requests).toHaveLength(2);
    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain('hi');
    expect(run.loaded).toEqual([]);
  });

  it('an answer without tools spawns nothing and loads no child_process, zlib, worker_threads or readline', async () => {
    const s = await suite.serve([textReply('Hello.')]);

    const run = await runRecordingLoads(['-p', 'say hello', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json'], UNUSED_BUILTINS);

    expect(run.code).toBe(0);
    expect(run.result).toMatchObject({ result: 'Hello.', is_error: false });
    expect(run.loaded).toEqual([]);
  });
});

/** The code paths the CLI's code cache says it covers (its header line), or undefined without a cache file. */
function cacheCoverage(home: string): string[] | undefined {
  const dir = path.join(home, '.cache', 'hookwise');
  // The bundle's cache, not a side bundle's (execa.js has its own once Bash ran).
  const file = readdirSync(dir).find((f) => f.endsWith('-cliMain.bin'));
  if (file === undefined) return undefined;
  const raw = readFileSync(path.join(dir, file));
  return raw.subarray('hookwise-cc1 '.length, raw.indexOf(10)).toString().split(',').filter(Boolean);
}

describe('hookwise -p code cache', () => {
  it('a run through tools and hooks the cache did not cover rewrites it to cover them; an empty run leaves it', async () => {
    const empty = await suite.serve([textReply('Hello.')]);
    expect((await runCliProcess(suite.cli, suite.w, ['-p', 'hi', '--model', 'm', '--base-url', empty.url])).code).toBe(0);
    const fromEmpty = cacheCoverage(suite.w.home) ?? [];
    expect(fromEmpty).not.toContain('tool:Bash');

    await suite.w.write(
      '.claude/settings.json',
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] } }),
    );
    const tools = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'true' } }]), textReply('done')]);
    const run = await runCliProcess(suite.cli, suite.w, [
      '-p',
      'go',
      '--model',
      'm',
      '--base-url',
      tools.url,
      '--allowed-tools',
      'Bash',
      '--output-format',
      'json',
    ]);
    expect(run.code).toBe(0);
    expect(parseJsonResult(run)).toMatchObject({ result: 'done', hook_runs: expect.arrayContaining([expect.objectContaining({ event: 'PreToolUse' })]) });
    const covered = cacheCoverage(suite.w.home);
    expect(covered).toEqual(expect.arrayContaining([...fromEmpty, 'event:PreToolUse', 'hook:command', 'tool:Bash']));
    // The Bash tool's launcher (execa.js, a side bundle) got its own cache; the empty run had none.
    expect(readdirSync(path.join(suite.w.home, '.cache', 'hookwise')).filter((f) => f.endsWith('-execa.bin'))).toHaveLength(1);

    const again = await suite.serve([textReply('Hello.')]);
    expect((await runCliProcess(suite.cli, suite.w, ['-p', 'hi', '--model', 'm', '--base-url', again.url])).code).toBe(0);
    expect(cacheCoverage(suite.w.home)).toEqual(covered);
  });
});
