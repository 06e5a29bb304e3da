/** The `hookwise.telemetry.*` settings (all optional; the CLI has none). */
export interface TelemetrySettings {
  readonly enabled?: boolean;
  /** OTLP/HTTP base URL (`/v1/traces` is appended) or the full traces URL. */
  readonly endpoint?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly serviceName?: string;
}

/** Where and how spans are sent. */
export interface TelemetryConfig {
  /** Full traces URL, e.g. `http://localhost:4318/v1/traces`. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
}

/** Off (with why, for a problem to show), or on. */
export type TelemetryResolution = { readonly on: false; readonly problem?: string } | { readonly on: true; readonly config: TelemetryConfig };

const DEFAULT_ENDPOINT = 'http://localhost:4318';
const MAX_HEADERS = 64;

/** `base` + `/v1/traces`, the way the OTLP exporters read OTEL_EXPORTER_OTLP_ENDPOINT. */
function tracesUrl(base: string): string {
  return /\/v1\/traces\/?$/.test(base) ? base : `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** OTEL_EXPORTER_OTLP_HEADERS: `k=v,k2=v2`, values URL-encoded. Bad pairs are skipped. */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!text) return headers;
  for (const pair of text.split(',').slice(0, MAX_HEADERS)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    try {
      const key = decodeURIComponent(pair.slice(0, eq).trim());
      if (key) headers[key] = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      // A malformed escape: that one header is left out.
    }
  }
  return headers;
}

/**
 * Decides whether spans are exported. On when `settings.enabled` is true, or — settings not
 * saying so — when the standard variables name an endpoint (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * or OTEL_EXPORTER_OTLP_ENDPOINT) and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none
 * turns it off. Each setting wins over its variable. Off by default.
 */
export function resolveTelemetry(settings: TelemetrySettings | undefined, env: NodeJS.ProcessEnv): TelemetryResolution {
  const envTraces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim();
  const envBase = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  const envOff = env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true' || env['OTEL_TRACES_EXPORTER']?.trim().toLowerCase() === 'none';
  const bySetting = settings?.enabled === true;
  if (!bySetting && (envOff || (!envTraces && !envBase))) return { on: false };
  const setting = settings?.endpoint?.trim();
  const url = setting ? tracesUrl(setting) : envTraces ? envTraces : tracesUrl(envBase || DEFAULT_ENDPOINT);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { on: false, problem: `OpenTelemetry export is off: endpoint "${url}" is not a URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { on: false, problem: `OpenTelemetry export is off: endpoint "${url}" is not http(s)` };
  const headers = { ...parseOtlpHeaders(env['OTEL_EXPORTER_OTLP_TRACES_HEADERS'] ?? env['OTEL_EXPORTER_OTLP_HEADERS']), ...settings?.headers };
  const serviceName = settings?.serviceName?.trim() || env['OTEL_SERVICE_NAME']?.trim() || 'hookwise';
  return { on: true, config: { url, headers, serviceName } };
}
