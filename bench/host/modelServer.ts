/**
 * The host benchmark's model, in its own process so its work (parsing every request of a
 * 2,000-call session) never lands in the extension host being measured. An OpenAI test server
 * answers each request with `perReply` Bash calls of `command` while `remaining` lasts, then
 * "done"; requests without tools (compaction summaries) get a summary. A control server takes
 * `POST /control {remaining?, perReply?, command?, resetStats?}` and answers `GET /stats`.
 * Prints `READY <modelUrl> <controlUrl>` once both listen; exits when stdin closes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startOpenAiTestServer, textReply, toolCallsReply, type ScriptedReply } from '../../test/support/openAiTestServer';

/** What `GET /stats` answers. */
export interface ModelServerStats {
  remaining: number;
  maxRequestBytes: number;
  compactions: number;
  requests: number;
}

const state = { remaining: 0, perReply: 1, command: 'true' };
const stats: ModelServerStats = { remaining: 0, maxRequestBytes: 0, compactions: 0, requests: 0 };
let callNo = 0;

async function main(): Promise<void> {
  const usage = { promptTokens: 10, completionTokens: 5 };
  const model = await startOpenAiTestServer({
    script: (request): ScriptedReply => {
      model.requests.splice(0); // the server keeps every request otherwise
      stats.requests++;
      stats.maxRequestBytes = Math.max(stats.maxRequestBytes, request.rawBody.length);
      if (!request.body.tools?.length) {
        stats.compactions++;
        return textReply('Summary: the user asked for many command runs; all succeeded.', { usage });
      }
      if (state.remaining <= 0) return textReply('done', { usage });
      const n = Math.min(state.perReply, state.remaining);
      state.remaining -= n;
      return toolCallsReply(
        Array.from({ length: n }, () => ({ id: `call_${++callNo}`, name: 'Bash', arguments: { command: state.command } })),
        { usage },
      );
    },
  });
  const control = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/control') {
        const next = JSON.parse(body || '{}') as Partial<typeof state> & { resetStats?: boolean };
        if (next.remaining !== undefined) state.remaining = next.remaining;
        if (next.perReply !== undefined) state.perReply = next.perReply;
        if (next.command !== undefined) state.command = next.command;
        if (next.resetStats) Object.assign(stats, { maxRequestBytes: 0, compactions: 0, requests: 0 });
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ...stats, remaining: state.remaining }));
    });
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const port = (control.address() as AddressInfo).port;
  console.log(`READY ${model.url} http://127.0.0.1:${port}`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
