import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a {@link RecordingListener} received, body and all. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A real HTTP listener on 127.0.0.1 (node:http, a free port) standing in for where a hook would
 * send data: it counts every TCP connection — so a test can assert that nothing at all arrived,
 * not even a header — and records each request. Answers 200 with `reply` (default `{}`).
 */
export interface RecordingListener {
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far (a request that never finished still counts). */
  connections(): number;
  close(): Promise<void>;
}

/** Starts a {@link RecordingListener}. */
export async function startRecordingListener(reply = '{}'): Promise<RecordingListener> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
