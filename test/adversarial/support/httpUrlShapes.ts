/**
 * Generated http-hook URL shapes against `allowedHttpHookUrls` patterns (issue 25 item 8).
 *
 * The oracle is written apart from the matcher under test: it asks the WHATWG URL parser (what
 * `http.request` connects to) for the scheme, host, port and path of each URL and checks a
 * plain predicate that says what each pattern means. A URL with user info must never be called.
 */

/** A refusal must name its rule: the list and its file, user info, or why the URL is not one. */
export const NAMES_A_RULE = /allowedHttpHookUrls (is empty in|in) \S|user info|not a valid URL|only http: and https:|encoded \/ or \\/;

/** A pattern and what it is meant to allow, as a predicate over the parsed URL. */
export interface PatternCase {
  readonly pattern: string;
  readonly allows: (u: ParsedUrl) => boolean;
}

/** What a URL connects to: host lowercased and without its trailing dot, port with the scheme's default. */
export interface ParsedUrl {
  readonly scheme: string;
  readonly host: string;
  readonly port: number;
  /** Path and query as the parser writes them (the fragment is never sent). */
  readonly path: string;
  readonly userInfo: boolean;
}

/** Parses like the request will; undefined when the URL does not parse (it can call nothing). */
export function parseForOracle(url: string): ParsedUrl | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = u.protocol.slice(0, -1);
  const host = u.hostname.endsWith('.') ? u.hostname.slice(0, -1) : u.hostname;
  const port = u.port !== '' ? Number(u.port) : scheme === 'https' ? 443 : 80;
  return { scheme, host, port, path: u.pathname + u.search, userInfo: u.username !== '' || u.password !== '' };
}

/** The host's labels; a host with an empty label (`a..b`) has none a wildcard could match. */
const labels = (host: string): string[] => (host.split('.').includes('') ? [] : host.split('.'));
const http80 = (u: ParsedUrl): boolean => u.scheme === 'http' && u.port === 80;

/** Patterns naming allowed.example, with a `*` in every position a pattern can hold one. */
export const PATTERNS: readonly PatternCase[] = [
  { pattern: 'http://allowed.example/*', allows: (u) => http80(u) && u.host === 'allowed.example' },
  { pattern: 'http://allowed.example:*/*', allows: (u) => u.scheme === 'http' && u.host === 'allowed.example' },
  {
    pattern: '*://allowed.example/*',
    allows: (u) => (u.scheme === 'http' ? u.port === 80 : u.scheme === 'https' && u.port === 443) && u.host === 'allowed.example',
  },
  { pattern: 'http://*.allowed.example/*', allows: (u) => http80(u) && u.host.endsWith('.allowed.example') && labels(u.host).length >= 3 },
  {
    pattern: 'http://hooks.*.example/*',
    allows: (u) => http80(u) && labels(u.host)[0] === 'hooks' && labels(u.host).at(-1) === 'example' && labels(u.host).length >= 3,
  },
  { pattern: 'http://allowed.*/*', allows: (u) => http80(u) && labels(u.host)[0] === 'allowed' && labels(u.host).length >= 2 },
  { pattern: 'http://allowed.example/hooks/*', allows: (u) => http80(u) && u.host === 'allowed.example' && u.path.startsWith('/hooks/') },
  { pattern: 'http://allowed.example/*/hook', allows: (u) => http80(u) && u.host === 'allowed.example' && u.path.endsWith('/hook') },
  { pattern: 'http://allowed.example/hook?*', allows: (u) => http80(u) && u.host === 'allowed.example' && u.path.startsWith('/hook?') },
  { pattern: '*', allows: (u) => u.scheme === 'http' || u.scheme === 'https' },
];

/** Strings that look like the allowed host, to hide in other parts of a URL. */
export const DECOYS = ['allowed.example', 'allowed.example:80', 'x.allowed.example', 'hooks.x.example', 'allowed.example/hooks/', 'allowed.example/hook'];

/**
 * Authorities a URL may name, each with `{port}` where a test puts its listener's port (the
 * policy-level test uses a fixed one). The first group all reach 127.0.0.1 (the attacker's
 * listener in the end-to-end test); the second are spellings of the allowed hosts and hostile
 * look-alikes.
 */
export const LOOPBACK_AUTHORITIES = [
  '127.0.0.1:{port}',
  '2130706433:{port}',
  '0x7f.0.0.1:{port}',
  '0x7F000001:{port}',
  '0177.0.0.1:{port}',
  '127.1:{port}',
  '127.0.0.1.:{port}',
  '%31%32%37.0.0.1:{port}',
  '127.0.0.1:0{port}',
  '[::ffff:127.0.0.1]:{port}',
];
export const NAMED_AUTHORITIES = [
  'allowed.example',
  'ALLOWED.Example',
  'allowed.example.',
  'allowed.example:80',
  'allowed.example:8080',
  'allowed.example:443',
  'x.allowed.example',
  'a.b.allowed.example',
  'hooks.x.example',
  'allowed.evil.test',
  '\uff41\uff4c\uff4c\uff4f\uff57\uff45\uff44.example',
  'allowed\u3002example',
  '\u0430llowed.example',
  'allowed.example..',
  'allowedexample',
  'evilallowed.example',
  'allowed.example.evil.test',
  'allowed-example',
  'evil.test',
  'EVIL.test.',
  '[::1]',
];

/** URL shapes around an authority `H` and a decoy `X`: plain, user info, and the decoy smuggled into path, query, fragment or a backslash. */
export const SHAPES: readonly ((h: string, x: string) => string)[] = [
  (h) => `http://${h}/`,
  (h) => `http://${h}/hooks/x`,
  (h) => `https://${h}/hooks/x`,
  (h) => `HTTP://${h}/x/hook`,
  (h) => `http://${h}/hook?q=1`,
  (h) => `http://${h}/hooks/../x`,
  (h, x) => `http://${x}@${h}/hooks/x`,
  (h, x) => `http://${x}:1@${h}/hooks/x`,
  (h) => `http://u:p@${h}/hooks/x`,
  (h, x) => `http://${x}\t@${h}/hooks/x`,
  (h, x) => `http://${x}@@${h}/hooks/x`,
  (h, x) => `  http://${x}@${h}/hooks/x`,
  (h, x) => `http://${h}/${x}/`,
  (h, x) => `http://${h}/.${x}/`,
  (h, x) => `http://${h}?.${x}/`,
  (h, x) => `http://${h}#.${x}/`,
  (h, x) => `http://${h}\\${x}/`,
  (h, x) => `http://${h}\\.${x}/`,
  (h, x) => `http://${h}\\@${x}/`,
  (h, x) => `http:\\\\${h}\\${x}`,
  (h, x) => `http:${h}/${x}`,
  (h, x) => `http://${x}%40${h}/`,
  (h, x) => `http://${h}%2f${x}/`,
  (h, x) => `http://${h}%23.${x}/`,
  (h, x) => `http://${h}/x?u=http://${x}/`,
];

/** One generated URL and what the oracle says about it under one pattern. */
export interface UrlCase {
  readonly url: string;
  readonly pattern: string;
  /** True when the pattern is meant to allow this URL. */
  readonly allowed: boolean;
}

/**
 * Every shape × authority × decoy under every pattern. A URL that does not parse or has user info
 * is never expected allowed. URLs whose path holds a `%` are left out: their expectations are
 * hand-written (the oracle does not decode escapes).
 */
export function generateUrlCases(authorities: readonly string[], port: number, patterns: readonly PatternCase[] = PATTERNS): UrlCase[] {
  const urls = new Set<string>();
  for (const a of authorities) for (const shape of SHAPES) for (const x of DECOYS) urls.add(shape(a.replace('{port}', String(port)), x));
  const out: UrlCase[] = [];
  for (const url of urls) {
    const parsed = parseForOracle(url);
    if (parsed?.path.includes('%')) continue;
    for (const p of patterns) out.push({ url, pattern: p.pattern, allowed: parsed !== undefined && !parsed.userInfo && p.allows(parsed) });
  }
  return out;
}
