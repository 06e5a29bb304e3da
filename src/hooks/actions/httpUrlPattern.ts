/**
 * `allowedHttpHookUrls` patterns matched on the parsed URL, component by component.
 *
 * Both sides go through the WHATWG URL parser (the one `http.request` gets its host from), so
 * `HTTP://Hooks.Example.COM./x`, `http://2130706433/` or `http://[0:0::1]/` compare as the host
 * they connect to. A `*` matches within its own component only: in the host it stands for one
 * or more whole labels, in the port for any port, in the scheme for http or https, in the path
 * (with the query) for any characters. A URL with user info never matches (docs/security.md).
 */

/** A hook URL as it will be called: the parts the allowlist compares. */
export interface HttpHookTarget {
  readonly scheme: 'http' | 'https';
  /** Lowercased, IDNA-mapped, IPv4 in dotted decimal, IPv6 in brackets; without a trailing dot. */
  readonly host: string;
  /** The port connected to (the scheme's default when the URL has none). */
  readonly port: number;
  /** Path and query, percent-escapes normalized (see {@link normalizePath}); the fragment is never sent, so it is left out. */
  readonly path: string;
  /** The URL as the parser writes it, for messages. */
  readonly href: string;
  /** True when the path holds `%2F` or `%5C`: a server may read them as separators, so the path cannot be checked. */
  readonly encodedSeparator: boolean;
}

/** A compiled pattern; `matches` is total (never throws). */
export interface HttpUrlPattern {
  readonly text: string;
  matches(target: HttpHookTarget): boolean;
}

const DEFAULT_PORTS = { http: 80, https: 443 } as const;

/** Stands in for `*` while a pattern goes through the URL parser: lowercase letters, digits and hyphens survive host and path parsing unchanged. */
const STAR = 'hookwise-star-z9q';

/** Glob units: a literal, exactly one unit, or any run of units (possibly none). */
const ONE: unique symbol = Symbol('one');
const ANY: unique symbol = Symbol('any');
type GlobUnit<T> = T | typeof ONE | typeof ANY;

/** Any user info in the authority as written, even one the parser would drop (`http://@host`). */
const RAW_AUTHORITY = /^[^A-Za-z]*[A-Za-z][A-Za-z0-9+.-]*:[/\\]*([^/\\?#]*)/;

/**
 * Parses a hook URL into what it will connect to, or says why it may not be called: not a URL,
 * not http(s), or user info (`http://allowed.example:1@127.0.0.1/` connects to 127.0.0.1;
 * Hookwise calls no URL whose user info can disguise its host, whatever the allowlist says).
 */
export function parseHttpHookTarget(url: string): { readonly ok: true; readonly target: HttpHookTarget } | { readonly ok: false; readonly reason: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `not a valid URL: ${JSON.stringify(url)}` };
  }
  const scheme = parsed.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return { ok: false, reason: `only http: and https: URLs are called, got ${parsed.protocol}` };
  if (parsed.username !== '' || parsed.password !== '' || (RAW_AUTHORITY.exec(url)?.[1] ?? '').includes('@'))
    return {
      ok: false,
      reason: `the URL has user info before its host (${JSON.stringify(url)} connects to ${parsed.host}); a URL with user info is never called — put credentials in headers`,
    };
  const port = parsed.port === '' ? DEFAULT_PORTS[scheme] : Number(parsed.port);
  const pathname = parsed.pathname;
  return {
    ok: true,
    target: {
      scheme,
      host: withoutTrailingDot(parsed.hostname),
      port,
      path: normalizePath(pathname + parsed.search),
      href: `${scheme}://${parsed.host}${pathname}${parsed.search}`,
      encodedSeparator: /%(2f|5c)/i.test(pathname),
    },
  };
}

/**
 * Compiles one pattern, or says why it is not one (it then matches nothing: a broken entry
 * must narrow, never widen). `*` alone matches every http(s) URL without user info.
 */
export function compileHttpUrlPattern(text: string): HttpUrlPattern | { readonly invalid: string } {
  if (text === '*') return { text, matches: () => true };
  // The URL parser drops tabs and newlines and reads \ as /: such a pattern would not mean what it shows.
  if ([...text].some((c) => c <= ' ' || c === '\x7f' || c === '\\' || /\s/.test(c)))
    return { invalid: 'it contains whitespace, a control character or a backslash' };
  if (text.includes(STAR)) return { invalid: 'it contains a reserved word' };
  const m = /^([^:/?#]+):\/\/([^/?#]*)([^#]*)(#.*)?$/.exec(text);
  if (!m) return { invalid: 'it is not scheme://host[:port][/path]' };
  const [, schemeText = '', authority = '', pathText = ''] = m;
  const scheme = schemeText.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https' && scheme !== '*') return { invalid: `the scheme must be http, https or *, got ${JSON.stringify(schemeText)}` };
  if (authority.includes('@')) return { invalid: 'user info (user@) is not allowed in a pattern' };
  const hostPort = splitHostPort(authority);
  if (typeof hostPort === 'string') return { invalid: hostPort };
  const host = compileHost(hostPort.host);
  if (typeof host === 'string') return { invalid: host };
  const port = hostPort.port;
  if (port !== undefined && port !== '*' && (!/^\d{1,5}$/.test(port) || Number(port) > 65535))
    return { invalid: `the port must be a number or *, got ${JSON.stringify(port)}` };
  const path = compilePath(pathText === '' ? '/' : pathText);
  if (typeof path === 'string') return { invalid: path };
  return {
    text,
    matches(target) {
      if (scheme !== '*' && scheme !== target.scheme) return false;
      const wantPort = port === undefined ? DEFAULT_PORTS[target.scheme] : port === '*' ? undefined : Number(port);
      if (wantPort !== undefined && wantPort !== target.port) return false;
      return host(target.host) && path(target.path);
    },
  };
}

/** Splits `host[:port]` (`[v6]:port` for IPv6); an empty port after the colon counts as none, as the URL parser reads it. */
function splitHostPort(authority: string): { host: string; port?: string } | string {
  if (authority.startsWith('[')) {
    const end = authority.indexOf(']');
    if (end < 0) return 'an IPv6 host has no closing ]';
    const rest = authority.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) return 'only :port may follow an IPv6 host';
    return { host: authority.slice(0, end + 1), ...(rest.length > 1 ? { port: rest.slice(1) } : {}) };
  }
  const colon = authority.lastIndexOf(':');
  if (colon < 0) return { host: authority };
  const port = authority.slice(colon + 1);
  return { host: authority.slice(0, colon), ...(port !== '' ? { port } : {}) };
}

/** The host as a test over {@link HttpHookTarget.host}: each `*` label matches one or more whole labels. */
function compileHost(text: string): ((host: string) => boolean) | string {
  if (text === '') return 'the host is empty';
  if (text === '*') return (host) => host !== '';
  if (text.startsWith('[') && text.includes('*')) return 'a * cannot stand inside an IPv6 address';
  let hostname: string;
  try {
    const parsed = new URL(`http://${text.split('*').join(STAR)}/`);
    if (parsed.username !== '' || parsed.port !== '' || parsed.pathname !== '/' || parsed.search !== '') return `${JSON.stringify(text)} is not a host`;
    hostname = withoutTrailingDot(parsed.hostname);
  } catch {
    return `${JSON.stringify(text)} is not a host (or a * is not a whole label of it)`;
  }
  const stars = text.split('*').length - 1;
  const labels = hostname.split('.');
  if (hostname.split(STAR).length - 1 !== stars || labels.some((l) => l !== STAR && l.includes(STAR)))
    return 'a * in the host must stand for whole labels, like *.example.com';
  // A * label is one label followed by any number more: a glob of ONE and ANY over labels.
  const glob = labels.flatMap((l): GlobUnit<string>[] => (l === STAR ? [ONE, ANY] : [l]));
  // An empty label (`a..example`) is no DNS name: no pattern naming labels matches it.
  return (host) => {
    const hostLabels = host.split('.');
    return !hostLabels.includes('') && globMatch(glob, hostLabels);
  };
}

/** The path (and query) as a test over {@link HttpHookTarget.path}: `*` matches any characters, `/` and `?` included. */
function compilePath(text: string): ((path: string) => boolean) | string {
  let path: string;
  try {
    const parsed = new URL(`http://h${text.startsWith('/') ? '' : '/'}${text.split('*').join(STAR)}`);
    path = normalizePath(parsed.pathname + parsed.search);
  } catch {
    return `${JSON.stringify(text)} is not a path`;
  }
  const stars = text.split('*').length - 1;
  const parts = path.split(STAR);
  // `..` next to a `*` removes it: such a pattern cannot mean what it says.
  if (parts.length - 1 !== stars) return 'a * in the path is removed by a ".." segment';
  const glob = parts.flatMap((part, i): GlobUnit<string>[] => (i > 0 ? [ANY, ...part] : [...part]));
  return (subject) => globMatch(glob, [...subject]);
}

/**
 * Glob matching without regexes: the two-pointer walk that backs up to the last `ANY`, at most
 * O(pattern × subject) steps — a hostile pattern with many `*` cannot make it backtrack
 * exponentially, as a `.*`-per-star regex can.
 */
function globMatch<T>(glob: readonly GlobUnit<T>[], subject: readonly T[]): boolean {
  let g = 0;
  let s = 0;
  let starG = -1;
  let starS = 0;
  while (s < subject.length) {
    const unit = glob[g];
    if (g < glob.length && unit !== ANY && (unit === ONE || unit === subject[s])) {
      g++;
      s++;
    } else if (unit === ANY) {
      starG = g++;
      starS = s;
    } else if (starG >= 0) {
      g = starG + 1;
      s = ++starS;
    } else return false;
  }
  while (g < glob.length && glob[g] === ANY) g++;
  return g === glob.length;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * One spelling per path: `%41` and `A` are the same character to any server (RFC 3986
 * unreserved), other escapes get uppercase hex. The URL parser already resolved `.`/`..`
 * segments, `%2e` ones included, and escaped what must be escaped.
 */
function normalizePath(path: string): string {
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

function withoutTrailingDot(host: string): string {
  return host.endsWith('.') && host.length > 1 ? host.slice(0, -1) : host;
}
