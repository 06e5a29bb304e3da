import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One decoded span: ids are the OTLP JSON hex strings, attributes flattened to plain values. */
export interface ReceivedSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root span. */
  readonly parentSpanId: string;
  readonly startTimeUnixNano: string;
  readonly endTimeUnixNano: string;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly statusMessage?: string;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** The resource's attributes (service.name…). */
  readonly resource: Readonly<Record<string, string | number | boolean>>;
  readonly scope: string;
}

/** A real OTLP/HTTP trace receiver (JSON encoding). */
export interface OtlpReceiver {
  /** Base URL, e.g. `http://127.0.0.1:4567` (POST `/v1/traces` below it). */
  readonly url: string;
  /** Every span received so far, in arrival order. */
  readonly spans: readonly ReceivedSpan[];
  /** Request headers of each POST, lower-cased names. */
  readonly requests: readonly http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

interface OtlpKeyValue {
  readonly key: string;
  readonly value: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
}

function flatten(attributes: readonly OtlpKeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
  }
  return out;
}

/** Decodes an ExportTraceServiceRequest (resourceSpans → scopeSpans → spans). */
export function decodeTraces(body: unknown): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  const request = body as {
    resourceSpans?: {
      resource?: { attributes?: OtlpKeyValue[] };
      scopeSpans?: {
        scope?: { name?: string };
        spans?: {
          name: string;
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          startTimeUnixNano: string;
          endTimeUnixNano: string;
          status?: { code?: number; message?: string };
          attributes?: OtlpKeyValue[];
        }[];
      }[];
    }[];
  };
  for (const rs of request.resourceSpans ?? []) {
    const resource = flatten(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        spans.push({
          name: s.name,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          startTimeUnixNano: String(s.startTimeUnixNano),
          endTimeUnixNano: String(s.endTimeUnixNano),
          statusCode: s.status?.code ?? 0,
          ...(s.status?.message ? { statusMessage: s.status.message } : {}),
          attributes: flatten(s.attributes),
          resource,
          scope: ss.scope?.name ?? '',
        });
  }
  return spans;
}

/** Starts a receiver on 127.0.0.1 (a free port): POST /v1/traces with JSON gets 200 `{}`; anything else 404/400. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push(req.headers);
      try {
        spans.push(...decodeTraces(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
