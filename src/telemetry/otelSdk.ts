import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { SpanAttributes, SpanHandle, SpanSink } from './spanSink';
import type { TelemetryConfig } from './telemetryConfig';

// The span builder is only needed when export is on: it ships in this bundle too.
export { TraceBuilder } from './traceBuilder';

/**
 * The only module that touches the OpenTelemetry SDK. esbuild emits it as its own file
 * (dist/telemetry.js) and src/telemetry/telemetryExport.ts loads it when export is on, so
 * the extension and CLI bundles do not carry the SDK.
 */

/** A tracer over OTLP/HTTP (JSON) and the means to flush and stop it. */
export interface OtelTracer {
  readonly sink: SpanSink;
  /** Sends what is queued; resolves when sent or failed (callers bound the wait). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** How long one export may take, retries included: the receiver being down must not hold an exit. */
const EXPORT_TIMEOUT_MS = 1500;

/** Reports an export failure to `onFailure`, then passes the result on. */
class ReportingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly onFailure: (message: string) => void,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) this.onFailure(result.error?.message || 'export failed');
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** `attributes` without its undefined values. */
function defined(attributes: SpanAttributes): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) out[key] = value;
  return out;
}

class OtelSpan implements SpanHandle {
  constructor(readonly span: Span) {}

  setAttributes(attributes: SpanAttributes): void {
    this.span.setAttributes(defined(attributes));
  }

  setError(message: string): void {
    this.span.setStatus({ code: SpanStatusCode.ERROR, message });
  }

  end(endTime?: number): void {
    this.span.end(endTime);
  }
}

/** Creates the provider, batch processor and OTLP/HTTP exporter for `config`. Nothing global is registered. */
export function createOtelTracer(config: TelemetryConfig, version: string, onFailure: (message: string) => void): OtelTracer {
  const exporter = new OTLPTraceExporter({ url: config.url, headers: { ...config.headers }, timeoutMillis: EXPORT_TIMEOUT_MS });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': version }),
    spanProcessors: [new BatchSpanProcessor(new ReportingExporter(exporter, onFailure), { exportTimeoutMillis: EXPORT_TIMEOUT_MS })],
  });
  const tracer = provider.getTracer('hookwise', version);
  const sink: SpanSink = {
    startSpan(name, options) {
      const parent = options.parent instanceof OtelSpan ? trace.setSpan(context.active(), options.parent.span) : undefined;
      const span = tracer.startSpan(
        name,
        { attributes: defined(options.attributes), ...(options.startTime !== undefined ? { startTime: options.startTime } : {}), root: parent === undefined },
        parent,
      );
      return new OtelSpan(span);
    },
  };
  return { sink, flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}
