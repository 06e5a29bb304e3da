import { describe, expect, it } from 'vitest';
import { isOpenAiHost, parseEndpoint, sameEndpointOrigin } from '../../../src/model/endpointOrigin';

describe('endpoint origins (where the API key would really go)', () => {
  it('the same server spelled differently is the same origin', () => {
    for (const spelling of [
      'https://api.openai.com/v1',
      'HTTPS://API.OPENAI.COM/v1',
      'https://api.openai.com:443/other/path',
      ' https://api.openai.com ',
      'https://Api.OpenAI.com/',
    ])
      expect(sameEndpointOrigin(spelling, 'https://api.openai.com/v1'), spelling).toBe(true);
    expect(sameEndpointOrigin('http://2130706433:8080/v1', 'http://127.0.0.1:8080')).toBe(true);
    expect(sameEndpointOrigin('http://0x7f.1:8080', 'http://127.0.0.1:8080')).toBe(true);
  });

  it('another scheme, host or port is another origin', () => {
    for (const other of [
      'http://api.openai.com/v1',
      'https://api.openai.com:8443/v1',
      'https://api.openai.com.evil.example/v1',
      'https://evil.example/api.openai.com/v1',
      'https://evil.example/?https://api.openai.com',
      'https://api.openai.com./v1',
      'https://xn--pi-openai-com.example/',
    ])
      expect(sameEndpointOrigin(other, 'https://api.openai.com/v1'), other).toBe(false);
  });

  it('a URL with a user name or password is refused, whatever host it names before "@"', () => {
    for (const raw of ['https://api.openai.com@evil.example/v1', 'http://api.openai.com:443@evil.example/', 'https://user:pw@api.openai.com/v1']) {
      const parsed = parseEndpoint(raw);
      expect(parsed.ok, raw).toBe(false);
      expect(parsed.ok ? '' : parsed.reason).toBe('userinfo');
      expect(sameEndpointOrigin(raw, 'https://api.openai.com/v1')).toBe(false);
    }
  });

  it('only http and https parse; garbage never matches', () => {
    expect(parseEndpoint('file:///etc/passwd')).toMatchObject({ ok: false, reason: 'scheme' });
    expect(parseEndpoint('javascript:alert(1)')).toMatchObject({ ok: false, reason: 'scheme' });
    expect(parseEndpoint('not a url')).toMatchObject({ ok: false, reason: 'invalid' });
    expect(sameEndpointOrigin('not a url', 'not a url')).toBe(false);
    expect(parseEndpoint('http://[::1]:11434/v1')).toMatchObject({ ok: true, origin: 'http://[::1]:11434' });
  });

  it('isOpenAiHost looks at the parsed host, not the string', () => {
    expect(isOpenAiHost('https://api.openai.com/v1')).toBe(true);
    expect(isOpenAiHost('https://api.openai.com.evil.example/v1')).toBe(false);
    expect(isOpenAiHost('https://evil.example/api.openai.com')).toBe(false);
  });
});
