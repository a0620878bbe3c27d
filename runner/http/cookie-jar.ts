// k6's CookieJar (http.cookieJar(), new http.CookieJar(), params.jar) over tough-cookie's RFC 6265 jar, plus the
// Set-Cookie parsing behind res.cookies. tough-cookie is loaded on first use: most load tests never see a cookie
// and each VU thread would otherwise pay for loading it and its public-suffix tables.

import { createRequire } from 'node:module';
import type * as Tough from 'tough-cookie';
import { isDate } from '../modules/cross-realm';
import type { ResponseCookie } from './response';

let tough: typeof Tough | undefined;
function lib(): typeof Tough {
  tough ??= createRequire(import.meta.url)('tough-cookie') as typeof Tough;
  return tough;
}

/** Options of jar.set(url, name, value, options) in k6's spelling. */
export interface CookieOptions {
  domain?: string;
  path?: string;
  expires?: string;
  max_age?: number;
  secure?: boolean;
  http_only?: boolean;
}

export class CookieJar {
  #jar: Tough.CookieJar | undefined;

  #store(): Tough.CookieJar {
    // Strict parsing drops `Set-Cookie: value` without a name, as Go's parser does. Go's jar, k6's, also keeps a
    // Secure cookie that came over (or was set for) an http: URL and only holds it back from http: requests: k6's
    // documentation sets one with jar.set('http://...', ..., { secure: true }).
    this.#jar ??= new (lib().CookieJar)(undefined, {
      rejectPublicSuffixes: false,
      enforceSecureOriginOnStorage: false,
    } as ConstructorParameters<typeof Tough.CookieJar>[1]);
    return this.#jar;
  }

  /** name -> values of the cookies that would be sent to `url`. */
  cookiesForURL(url: string): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    if (!this.#jar) return out;
    for (const c of this.#jar.getCookiesSync(String(url))) {
      out[c.key] = [...(out[c.key] ?? []), c.value];
    }
    return out;
  }

  set(url: string, name: string, value: string, options?: CookieOptions | null): void {
    let text = `${name}=${value}`;
    if (options?.domain) text += `; Domain=${options.domain}`;
    if (options?.path) text += `; Path=${options.path}`;
    if (options?.expires) text += `; Expires=${options.expires}`;
    if (options?.max_age !== undefined) text += `; Max-Age=${options.max_age}`;
    if (options?.secure) text += '; Secure';
    if (options?.http_only) text += '; HttpOnly';
    this.#store().setCookieSync(text, String(url));
  }

  clear(url: string): void {
    if (!this.#jar) return;
    for (const c of this.#jar.getCookiesSync(String(url))) this.#expire(c);
  }

  delete(url: string, name: string): void {
    if (!this.#jar) return;
    for (const c of this.#jar.getCookiesSync(String(url))) if (c.key === name) this.#expire(c);
  }

  #expire(c: Tough.Cookie): void {
    const store = this.#store().store;
    store.removeCookie(c.domain ?? '', c.path ?? '/', c.key, () => {});
  }

  /** Empties the jar (the VU jar at each iteration start unless noCookiesReset). */
  reset(): void {
    this.#jar = undefined;
  }

  /** The Cookie header value for `url`, or "" when nothing matches. */
  cookieHeader(url: string): string {
    if (!this.#jar) return '';
    return this.#jar.getCookieStringSync(url);
  }

  /** [name, value] of the cookies to send to `url`, in RFC 6265 order (longest path first). */
  cookiePairs(url: string): Array<[string, string]> {
    if (!this.#jar) return [];
    return this.#jar.getCookiesSync(url).map((c) => [c.key, c.value]);
  }

  /** Stores the Set-Cookie values of one response hop; invalid cookies are ignored, as browsers and Go do. */
  storeFrom(setCookies: readonly string[], url: string): void {
    if (setCookies.length === 0) return;
    const jar = this.#store();
    for (const header of setCookies) jar.setCookieSync(header, url, { ignoreError: true });
  }
}

/** Set-Cookie header values -> res.cookies ({name: [cookie, ...]}). */
export function responseCookies(setCookies: readonly string[], url: URL): Record<string, ResponseCookie[]> {
  const out: Record<string, ResponseCookie[]> = {};
  if (setCookies.length === 0) return out;
  const { Cookie } = lib();
  for (const header of setCookies) {
    const c = Cookie.parse(header);
    if (!c) continue;
    const expires = isDate(c.expires) ? c.expires.getTime() : 0;
    const maxAge = typeof c.maxAge === 'number' && Number.isFinite(c.maxAge) ? c.maxAge : 0;
    out[c.key] = out[c.key] ?? [];
    out[c.key].push({
      name: c.key,
      value: c.value,
      domain: c.domain ?? url.hostname,
      path: c.path ?? '/',
      httpOnly: c.httpOnly,
      secure: c.secure,
      maxAge,
      expires,
    });
  }
  return out;
}
