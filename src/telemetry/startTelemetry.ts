import type { TelemetrySettings } from './telemetryConfig';
import { resolveTelemetry } from './telemetryConfig';
import { TelemetryExport } from './telemetryExport';

/**
 * The OpenTelemetry export `settings` and `env` ask for, started; undefined when it is off (the
 * default) or cannot start — then `warn` says why in one line. Never throws.
 */
export async function startTelemetry(
  settings: TelemetrySettings | undefined,
  env: NodeJS.ProcessEnv,
  version: string,
  warn: (message: string) => void,
): Promise<TelemetryExport | undefined> {
  const resolution = resolveTelemetry(settings, env);
  if (!resolution.on) {
    if (resolution.problem) warn(resolution.problem);
    return undefined;
  }
  const started = await TelemetryExport.start(resolution.config, version, warn);
  if (typeof started === 'string') {
    warn(started);
    return undefined;
  }
  return started;
}
