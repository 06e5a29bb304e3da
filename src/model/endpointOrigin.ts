/**
 * Where a model endpoint URL really sends its requests: the parsed origin (scheme, host,
 * port), never the raw string. Used to decide whether an API key may go to a URL that a
 * workspace chose (issue 25): `https://api.openai.com@evil.example`, `HTTPS://API.OPENAI.COM:443`
 * and `http://2130706433` are all judged by where `fetch` would connect.
 */

/** A base URL taken apart, or why it cannot be used. */
export type EndpointParse =
  | { readonly ok: true; readonly origin: string; readonly url: URL }
  | { readonly ok: false; readonly reason: 'invalid' | 'scheme' | 'userinfo'; readonly message: string };

/**
 * Parses an OpenAI-compatible base URL. Only `http:` and `https:` are accepted, and never one
 * with a user name or password: `fetch` refuses such URLs anyway, and `user@host` is the classic
 * way to make a URL read like another host. `origin` is WHATWG-normalised (lower-case host,
 * default port dropped, IPv4 shorthand and IDNs canonical), so equal origins mean the same server.
 */
export function parseEndpoint(raw: string): EndpointParse {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'invalid', message: `${JSON.stringify(raw)} is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'scheme', message: `${JSON.stringify(raw)} is not an http or https URL` };
  if (url.username !== '' || url.password !== '')
    return {
      ok: false,
      reason: 'userinfo',
      message: `${JSON.stringify(raw)} contains a user name or password (before "@"); put the key in "Hookwise: Set API Key"`,
    };
  return { ok: true, origin: url.origin, url };
}

/** True when both URLs parse and connect to the same origin (scheme, host and port). */
export function sameEndpointOrigin(a: string, b: string): boolean {
  const pa = parseEndpoint(a);
  const pb = parseEndpoint(b);
  return pa.ok && pb.ok && pa.origin === pb.origin;
}

/** True when the URL's host is OpenAI's own API (parsed, so `api.openai.com.evil.example` is not). */
export function isOpenAiHost(raw: string): boolean {
  const parsed = parseEndpoint(raw);
  return parsed.ok && parsed.url.hostname === 'api.openai.com';
}
