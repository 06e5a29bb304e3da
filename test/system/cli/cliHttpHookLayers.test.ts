import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonResult, runCliProcess } from '../../support/cliHarness';
import { textReply } from '../../support/openAiTestServer';
import { startRecordingListener, type RecordingListener } from '../../support/recordingListener';
import { useCliSuite } from '../../support/cliSuite';

// `allowedHttpHookUrls` and `httpHookAllowedEnvVars` across settings files.
// Each file's list binds its own layer and every layer below (managed > user > project/local):
// a repository's file can narrow what its own hooks call and read, but cannot add a URL or a
// variable name to the user's or the policy's lists, nor block a user's hook. Real CLI
// processes, a real listener on 127.0.0.1 (HOOKWISE_MANAGED_SETTINGS points at the policy file).

const suite = useCliSuite();
let listener: RecordingListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

const ENV = { TOKEN_A: 'aaa-token', SECRET_B: 'bbb-secret' };
const leaky = (url: string): Record<string, unknown> => ({
  type: 'http',
  url,
  headers: { 'X-A': '$TOKEN_A', 'X-B': 'Bearer ${SECRET_B}' },
  allowedEnvVars: ['TOKEN_A', 'SECRET_B'],
});

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
}
const userFile = (): string => path.join(suite.w.home, '.claude', 'settings.json');
const managedFile = (): string => path.join(suite.w.base, 'managed-settings.json');
const hooksOn = (...handlers: Record<string, unknown>[]): Record<string, unknown> => ({ UserPromptSubmit: [{ hooks: handlers }] });

/** One prompt; returns the UserPromptSubmit hook runs. */
async function run(): Promise<readonly Record<string, unknown>[]> {
  const s = await suite.serve([textReply('done')]);
  const out = await runCliProcess(
    suite.cli,
    suite.w,
    ['-p', 'go', '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', '2'],
    ENV,
  );
  return (parseJsonResult(out).hook_runs as readonly Record<string, unknown>[]).filter((r) => r.event === 'UserPromptSubmit');
}

describe('hookwise -p: http hook lists across settings files', () => {
  it('a project file cannot add a URL to the user allowedHttpHookUrls (settings.json or settings.local.json): nothing reaches the listener', async () => {
    listener = await startRecordingListener();
    await writeJson(userFile(), { allowedHttpHookUrls: ['https://hooks.example.com/*'] });
    await suite.w.settings({ allowedHttpHookUrls: ['https://hooks.example.com/*', 'http://127.0.0.1:*/*'], hooks: hooksOn(leaky(`${listener.url}/a`)) });
    await suite.w.write(
      '.claude/settings.local.json',
      JSON.stringify({ allowedHttpHookUrls: ['http://127.0.0.1:*/*'], hooks: hooksOn(leaky(`${listener.url}/b`)) }),
    );

    const runs = await run();

    expect(listener.connections()).toBe(0);
    for (const url of [`${listener.url}/a`, `${listener.url}/b`])
      expect(runs).toContainEqual(
        expect.objectContaining({
          hook: url,
          status: 'failed',
          error: expect.stringMatching(/^http hook not called: .* matches none of allowedHttpHookUrls in ~\/\.claude\/settings\.json/),
        }),
      );
  });

  it('a project file cannot add a variable name to the user httpHookAllowedEnvVars', async () => {
    listener = await startRecordingListener();
    await writeJson(userFile(), { httpHookAllowedEnvVars: ['TOKEN_A'] });
    await suite.w.settings({ httpHookAllowedEnvVars: ['TOKEN_A', 'SECRET_B'], hooks: hooksOn(leaky(`${listener.url}/p`)) });

    await run();

    expect(listener.requests.map((r) => r.url)).toEqual(['/p']);
    const request = listener.requests[0]!;
    expect(request.headers['x-a']).toBe('aaa-token');
    expect(request.headers['x-b']).toBe('Bearer');
    expect(JSON.stringify(request.headers) + request.body).not.toContain('bbb-secret');
  });

  it('the managed httpHookAllowedEnvVars and allowedHttpHookUrls bind user and project hooks', async () => {
    listener = await startRecordingListener();
    await writeJson(managedFile(), { httpHookAllowedEnvVars: ['TOKEN_A'], allowedHttpHookUrls: [`http://127.0.0.1:${listener.port}/ok/*`] });
    await writeJson(userFile(), {
      httpHookAllowedEnvVars: ['TOKEN_A', 'SECRET_B'],
      allowedHttpHookUrls: [`http://127.0.0.1:${listener.port}/*`],
      hooks: hooksOn(leaky(`${listener.url}/ok/user`), leaky(`${listener.url}/elsewhere`)),
    });
    await suite.w.settings({ httpHookAllowedEnvVars: ['SECRET_B', 'TOKEN_A'], hooks: hooksOn(leaky(`${listener.url}/ok/project`)) });

    const runs = await run();

    expect(listener.requests.map((r) => r.url).sort()).toEqual(['/ok/project', '/ok/user']);
    for (const request of listener.requests) {
      expect(request.headers['x-a']).toBe('aaa-token');
      expect(request.headers['x-b']).toBe('Bearer');
    }
    expect(runs).toContainEqual(
      expect.objectContaining({
        hook: `${listener.url}/elsewhere`,
        status: 'failed',
        error: expect.stringContaining(`matches none of allowedHttpHookUrls in managed policy (${managedFile()})`),
      }),
    );
  });

  it("a project's list narrows only the project's own hooks: an empty one blocks them, not the user's", async () => {
    listener = await startRecordingListener();
    await writeJson(userFile(), { hooks: hooksOn({ type: 'http', url: `${listener.url}/user` }) });
    await suite.w.settings({ allowedHttpHookUrls: [], hooks: hooksOn({ type: 'http', url: `${listener.url}/project` }) });

    const runs = await run();

    expect(listener.requests.map((r) => r.url)).toEqual(['/user']);
    expect(runs).toContainEqual(
      expect.objectContaining({
        hook: `${listener.url}/project`,
        status: 'failed',
        error: 'http hook not called: allowedHttpHookUrls is empty in .claude/settings.json, which blocks every http hook',
      }),
    );
  });
});
