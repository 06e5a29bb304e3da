import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonResult } from '../support/cliHarness';
import { textReply } from '../support/openAiTestServer';
import { startRecordingListener, type RecordingListener } from '../support/recordingListener';
import { useCliSuite } from '../support/cliSuite';
import { generateUrlCases, LOOPBACK_AUTHORITIES, NAMES_A_RULE, PATTERNS } from './support/httpUrlShapes';

/**
 * End to end: the generated URL shapes of httpUrlAllowlist.test.ts aimed at a
 * real listener on 127.0.0.1 (every IPv4 spelling of it, and IPv6-mapped), as a hostile
 * project's http hooks under the user's `allowedHttpHookUrls`. Through the real CLI: every
 * hostile shape is a failed run naming the rule and the listener sees no connection at all;
 * every spelling of an allowed URL arrives.
 */

const suite = useCliSuite();
let listener: RecordingListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

/** Writes `value` as JSON to `file`, making its folder. */
async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
}

/** The schema refuses a handler URL that does not start with http(s)://; such hooks never load, so they have no run to assert on. */
const LOADS = /^https?:\/\//i;

/** Runs one prompt with `urls` as the project's UserPromptSubmit http hooks and the user's `allowedHttpHookUrls`; returns the hook runs. */
async function runWithHooks(urls: readonly string[], allowedUrls: readonly string[]): Promise<readonly Record<string, unknown>[]> {
  await writeJson(path.join(suite.w.home, '.claude', 'settings.json'), { allowedHttpHookUrls: allowedUrls });
  await suite.w.settings({ hooks: { UserPromptSubmit: [{ hooks: urls.map((url) => ({ type: 'http', url, timeout: 10 })) }] } });
  const s = await suite.serve([textReply('done')]);
  const out = await suite.runPrompt(s, 'go', 2);
  const json = parseJsonResult(out);
  return (json.hook_runs as readonly Record<string, unknown>[]).filter((r) => r.event === 'UserPromptSubmit');
}

describe('adversarial: allowedHttpHookUrls end to end (CLI, real listener)', () => {
  it('every hostile shape aimed at the listener is a failed run naming the rule, and the listener receives nothing', async () => {
    listener = await startRecordingListener();
    const named = PATTERNS.filter((p) => p.pattern !== '*');
    const byUrl = new Map<string, boolean>();
    for (const c of generateUrlCases(LOOPBACK_AUTHORITIES, listener.port, named)) byUrl.set(c.url, (byUrl.get(c.url) ?? false) || c.allowed);
    const hostile = [...byUrl].filter(([url, allowed]) => !allowed && LOADS.test(url)).map(([url]) => url);
    expect(hostile.length).toBeGreaterThan(200);

    const runs = await runWithHooks(
      hostile,
      named.map((p) => p.pattern),
    );

    expect(listener.connections()).toBe(0);
    expect(listener.requests).toEqual([]);
    const failures = hostile.filter((url) => {
      const run = runs.find((r) => r.hook === url);
      return run?.status !== 'failed' || !String(run.error).startsWith('http hook not called: ') || !NAMES_A_RULE.test(String(run.error));
    });
    console.log(`[adversarial] httpUrlAllowlist e2e: ${hostile.length} hostile URLs, ${failures.length} failures`);
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it('every spelling of an allowed URL reaches the listener once', async () => {
    listener = await startRecordingListener();
    const port = listener.port;
    const spellings = ['127.0.0.1', '2130706433', '0x7f.0.0.1', '0177.0.0.1', '127.1', '127.0.0.1.', '%31%32%37.0.0.1'];
    const urls: string[] = [];
    const expected: string[] = [];
    spellings.forEach((host, i) => {
      urls.push(`http://${host}:${port}/hook/p${i}`, `HTTP://${host}:0${port}/x/../hook/q${i}`, `http://${host}:${port}/%68ook/r${i}#frag`);
      expected.push(`/hook/p${i}`, `/hook/q${i}`, `/%68ook/r${i}`);
      urls.push(`http://${host}:${port}/wild/s${i}?z=1`);
      expected.push(`/wild/s${i}?z=1`);
    });

    const runs = await runWithHooks(urls, [`http://127.0.0.1:${port}/hook/*`, `*://127.0.0.*:*/wild/*`]);

    expect(runs.filter((r) => r.status !== 'ok')).toEqual([]);
    expect(listener.requests.map((r) => r.url).sort()).toEqual(expected.sort());
  });
});
