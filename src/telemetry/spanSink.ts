/**
 * The little of a tracer the span builder needs. The OpenTelemetry SDK implements it in a
 * separate bundle (src/telemetry/otelSdk.ts → dist/telemetry.js) loaded only when export is on,
 * so neither the builder nor the main bundle depends on the SDK.
 */

/** Attribute values OTLP carries; an undefined value is left out. */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** One open span. `end` is idempotent in effect: the builder calls it once. */
export interface SpanHandle {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed (status ERROR) with a short message. */
  setError(message: string): void;
  /** Ends the span at `endTime` (epoch ms), now when omitted. */
  end(endTime?: number): void;
}

/** Starts spans; `parent` undefined starts a new trace. */
export interface SpanSink {
  startSpan(name: string, options: { readonly parent?: SpanHandle; readonly startTime?: number; readonly attributes: SpanAttributes }): SpanHandle;
}
