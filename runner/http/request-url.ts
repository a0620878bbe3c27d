// Request targets: URL strings and http.url`...` templates -> the URL to fetch, the `name`/`url` tag values (with
// `user:password@` masked) and the Basic credentials the URL carries (docs/k6-behaviour.md §3.2 name/url rules).

/** What http.url`...` returns: the real URL plus a low-cardinality name with `${}` for each interpolation. */
export class HttpURL {
  readonly __brand = 'http-url';
  constructor(
    readonly url: string,
    readonly name: string,
  ) {}

  toString(): string {
    return this.url;
  }
}

/** Implements the tagged template: http.url`http://x/posts/${id}` -> HttpURL("http://x/posts/7", "http://x/posts/${}"). */
export function urlTemplate(strings: TemplateStringsArray, args: readonly unknown[]): HttpURL {
  let url = strings[0];
  let name = strings[0];
  for (let i = 0; i < args.length; i++) {
    url += String(args[i]) + strings[i + 1];
    name += `\${}${strings[i + 1]}`;
  }
  return new HttpURL(url, name);
}

export interface RequestTarget {
  /** The URL sent on the wire (credentials removed). */
  url: URL;
  /** Masked URL for the `url` tag and res.url-like displays. */
  tagUrl: string;
  /** Masked template or URL for the `name` tag. */
  tagName: string;
  /** `Basic ...` from `user:password@`, if any (Go's client sends it unless an Authorization header is set). */
  basicAuth: string | undefined;
  /** The URL's user and password, decoded (digest auth answers its challenge with them). */
  credentials: { user: string; password: string } | undefined;
}

export class InvalidUrlError extends Error {
  override name = 'InvalidUrlError';
}

const CREDENTIALS = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i;

/** `http://user:pw@host/` -> `http://****:****@host/` (k6's masking for tags and logs). */
export function maskCredentials(url: string): string {
  return url.replace(CREDENTIALS, '$1****:****@');
}

/** Parses a request URL argument; throws InvalidUrlError for anything but an absolute http(s) URL. */
export function resolveTarget(arg: unknown): RequestTarget {
  const raw = arg instanceof HttpURL ? arg.url : String(arg);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidUrlError(
      `invalid URL "${maskCredentials(raw)}": it must be absolute, like http://host/path`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidUrlError(
      `invalid URL "${maskCredentials(raw)}": unsupported protocol scheme "${url.protocol}"`,
    );
  }
  let basicAuth: string | undefined;
  let credentials: RequestTarget['credentials'];
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    credentials = { user, password };
    basicAuth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const tagUrl = maskCredentials(raw);
  const tagName = arg instanceof HttpURL ? maskCredentials(arg.name) : tagUrl;
  return { url, tagUrl, tagName, basicAuth, credentials };
}
