import { describe, expect, it } from 'vitest';
import { parseOtlpHeaders, resolveTelemetry } from '../../../src/telemetry/telemetryConfig';

describe('resolveTelemetry', () => {
  it('is off by default and when the SDK or the traces exporter is turned off', () => {
    expect(resolveTelemetry(undefined, {})).toEqual({ on: false });
    expect(resolveTelemetry({ enabled: false }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'TRUE' }).on).toBe(false);
    expect(resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).on).toBe(false);
  });

  it('reads the standard variables: the traces endpoint as is, the base one with /v1/traces', () => {
    expect(resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })).toEqual({
      on: true,
      config: { url: 'http://c:4318/v1/traces', headers: {}, serviceName: 'hookwise' },
    });
    const r = resolveTelemetry(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/api/traces',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%2Cb, x=1',
      OTEL_SERVICE_NAME: 'ci',
    });
    expect(r).toEqual({ on: true, config: { url: 'https://t.example/api/traces', headers: { 'api-key': 'a,b', x: '1' }, serviceName: 'ci' } });
  });

  it('settings win over the variables, including OTEL_SDK_DISABLED', () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'a=env,b=env',
      OTEL_SERVICE_NAME: 'env',
      OTEL_SDK_DISABLED: 'true',
    };
    expect(resolveTelemetry({ enabled: true, endpoint: 'http://set:4318', headers: { a: 'set' }, serviceName: 'set' }, env)).toEqual({
      on: true,
      config: { url: 'http://set:4318/v1/traces', headers: { a: 'set', b: 'env' }, serviceName: 'set' },
    });
    expect(resolveTelemetry({ enabled: true }, {})).toMatchObject({ on: true, config: { url: 'http://localhost:4318/v1/traces' } });
  });

  it('a bad endpoint turns it off with a message naming it', () => {
    expect(resolveTelemetry({ enabled: true, endpoint: 'file:///etc/passwd' }, {})).toEqual({
      on: false,
      problem: 'OpenTelemetry export is off: endpoint "file:///etc/passwd/v1/traces" is not http(s)',
    });
    expect(resolveTelemetry({ enabled: true, endpoint: 'not a url' }, {}).on).toBe(false);
  });

  it('skips malformed header pairs', () => {
    expect(parseOtlpHeaders('=x,novalue,k=%E0%A4%A,ok=1')).toEqual({ ok: '1' });
  });
});
