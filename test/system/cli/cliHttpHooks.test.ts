import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenAiTestServer } from '../../support/openAiTestServer';
import { textReply, toolCallsReply } from '../../support/openAiTestServer';
import type { CliRun } from '../../support/cliHarness';
import { parseJsonResult, runCliProcess } from '../../support/cliHarness';
import { useCliSuite } from '../../support/cliSuite';

const suite = useCliSuite();

/** One request the hook server received. */
interface HookRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

/** A real HTTP endpoint for http hooks: answers each request with `reply` and records it. */
interface HookServer {
  readonly url: string;
  readonly requests: HookRequest[];
  close(): Promise<void>;
}

let hookServer: HookServer | undefined;
afterEach(async () => {
  await hookServer?.close();
  hookServer = undefined;
});

async function startHookServer(reply: (req: HookRequest) => { status: number; body: string }): Promise<HookServer> {
  const requests: HookRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: HookRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      };
      requests.push(recorded);
      const { status, body } = reply(recorded);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  hookServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return hookServer;
}

function run(s: OpenAiTestServer, prompt: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runCliProcess(suite.cli, suite.w, ['-p', prompt, '--model', 'test-model', '--base-url', s.url, '--output-format', 'json', '--max-steps', '6'], env);
}

const deny = JSON.stringify({
  hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'rm is not allowed here' },
});
const rmCall = () => toolCallsReply([{ id: 'call_rm', name: 'Bash', arguments: { command: 'rm keep.txt' } }]);

describe('hookwise -p with http hooks', () => {
  it('POSTs the hook input as JSON; a JSON deny in the response blocks the call; headers expand only allowed variables', async () => {
    const hooks = await startHookServer(() => ({ status: 200, body: deny }));
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'http',
                url: `${hooks.url}/pre`,
                headers: { Authorization: 'Bearer $MY_TOKEN', 'X-Braced': '${MY_TOKEN}-x', 'X-Secret': 'leak:$SECRET_TOKEN' },
                allowedEnvVars: ['MY_TOKEN'],
              },
            ],
          },
        ],
      },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([rmCall(), textReply('OK.')]);

    const out = await run(s, 'clean up', { MY_TOKEN: 'tok-123', SECRET_TOKEN: 'hunter2' });
    const json = parseJsonResult(out);

    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(hooks.requests).toHaveLength(1);
    const request = hooks.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/pre');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe('Bearer tok-123');
    expect(request.headers['x-braced']).toBe('tok-123-x');
    expect(request.headers['x-secret']).toBe('leak:');
    expect(request.body).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm keep.txt' } });
    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain('rm is not allowed here');
    expect(json.hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', status: 'blocked', decision: 'deny', url: `${hooks.url}/pre`, http_status: 200 }),
    );
  });

  it('a non-2xx answer is a non-blocking error recorded with status and body; continueOnFailure false makes it fail closed', async () => {
    const hooks = await startHookServer(() => ({ status: 503, body: 'policy service down' }));
    await suite.w.write('keep.txt', 'precious');
    await suite.w.write('also.txt', 'precious');
    const handler = { type: 'http', url: `${hooks.url}/pre` };
    await suite.w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [handler] }] }, permissions: { allow: ['Bash'] } });
    const s = await suite.serve([rmCall(), textReply('done')]);

    const json = parseJsonResult(await run(s, 'clean up'));

    expect(suite.w.exists('keep.txt')).toBe(false);
    expect(json.hook_runs).toContainEqual(
      expect.objectContaining({ event: 'PreToolUse', status: 'failed', http_status: 503, error: expect.stringContaining('HTTP 503') }),
    );
    expect(JSON.stringify(json.hook_runs)).toContain('policy service down');

    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ ...handler, continueOnFailure: false }] }] },
      permissions: { allow: ['Bash'] },
    });
    await s.close();
    const s2 = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'rm also.txt' } }]), textReply('ok')]);
    await run(s2, 'clean up');
    expect(suite.w.read('also.txt')).toBe('precious');
  });

  it('a refused connection is a non-blocking error: the call goes ahead and the record says why', async () => {
    const hooks = await startHookServer(() => ({ status: 200, body: '' }));
    const url = `${hooks.url}/gone`;
    await hooks.close();
    hookServer = undefined;
    await suite.w.settings({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url }] }] }, permissions: { allow: ['Bash'] } });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo ran > ran.txt' } }]), textReply('done')]);

    const json = parseJsonResult(await run(s, 'go'));

    expect(suite.w.read('ran.txt').trim()).toBe('ran');
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ status: 'failed', url, error: expect.stringContaining('ECONNREFUSED') }));
  });

  it('an empty 2xx body is a success without a decision', async () => {
    const hooks = await startHookServer(() => ({ status: 204, body: '' }));
    await suite.w.settings({ hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: hooks.url }] }] }, permissions: { allow: ['Bash'] } });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo hi' } }]), textReply('done')]);

    const json = parseJsonResult(await run(s, 'go'));

    expect(hooks.requests.map((r) => r.body.hook_event_name)).toEqual(['PostToolUse']);
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ event: 'PostToolUse', status: 'ok', http_status: 204 }));
    expect(json.status).toBe('completed');
  });

  it('allowedHttpHookUrls: [] blocks every http hook (nothing is sent; the record says so); a matching pattern lets one through', async () => {
    const hooks = await startHookServer(() => ({ status: 200, body: deny }));
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: `${hooks.url}/pre` }] }] },
      permissions: { allow: ['Bash'] },
      allowedHttpHookUrls: [],
    });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo ran > ran.txt' } }]), textReply('done')]);

    const json = parseJsonResult(await run(s, 'go'));

    expect(hooks.requests).toHaveLength(0);
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ status: 'failed', error: expect.stringContaining('allowedHttpHookUrls is empty') }));

    // A pattern matching the hook lets it through (cliHttpHookLayers.test.ts: lists across files).
    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: `${hooks.url}/pre` }] }] },
      permissions: { allow: ['Bash'] },
      allowedHttpHookUrls: ['http://127.0.0.1:*/pre'],
    });
    await s.close();
    const s2 = await suite.serve([rmCall(), textReply('ok')]);
    await run(s2, 'clean up');
    expect(hooks.requests).toHaveLength(1);
    expect(suite.w.read('keep.txt')).toBe('precious');
  });

  it('httpHookAllowedEnvVars narrows what a hook may put in its headers', async () => {
    const hooks = await startHookServer(() => ({ status: 200, body: '{}' }));
    await suite.w.settings({
      hooks: {
        PostToolUse: [{ hooks: [{ type: 'http', url: hooks.url, headers: { 'X-A': '$TOKEN_A', 'X-B': '$TOKEN_B' }, allowedEnvVars: ['TOKEN_A', 'TOKEN_B'] }] }],
      },
      httpHookAllowedEnvVars: ['TOKEN_B'],
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([toolCallsReply([{ name: 'Bash', arguments: { command: 'echo hi' } }]), textReply('done')]);

    await run(s, 'go', { TOKEN_A: 'aaa', TOKEN_B: 'bbb' });

    expect(hooks.requests[0]?.headers['x-a']).toBe('');
    expect(hooks.requests[0]?.headers['x-b']).toBe('bbb');
  });

  it('a response body over 1 MiB is cut and fails like oversized command stdout: fail-closed hooks deny', async () => {
    const huge = JSON.stringify({ decision: 'approve', pad: 'x'.repeat(2 * 1024 * 1024) });
    const hooks = await startHookServer(() => ({ status: 200, body: huge }));
    await suite.w.write('keep.txt', 'precious');
    await suite.w.settings({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: hooks.url, continueOnFailure: false }] }] },
      permissions: { allow: ['Bash'] },
    });
    const s = await suite.serve([rmCall(), textReply('ok')]);

    const json = parseJsonResult(await run(s, 'clean up'));

    expect(suite.w.read('keep.txt')).toBe('precious');
    expect(json.hook_runs).toContainEqual(expect.objectContaining({ status: 'failed', error: expect.stringContaining('exceeded 1 MiB') }));
  });
});
