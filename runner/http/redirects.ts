// Where a 3xx response leads, by Go's client rules (which k6 inherits): 301/302/303 turn anything but GET/HEAD into
// a bodiless GET, 307/308 resend the method and body; only http(s) Locations are followed. Pure.

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export interface RedirectHop {
  url: URL;
  method: string;
  /** True for 307/308: the same body goes to the new URL. */
  resendBody: boolean;
  /** True when the new URL is on another host: credentials (Authorization, Cookie headers) are dropped. */
  crossHost: boolean;
}

/** The next hop of a redirect, or undefined when the response is not a usable redirect. */
export function redirectHop(
  status: number,
  method: string,
  location: string | undefined,
  from: URL,
): RedirectHop | undefined {
  if (!REDIRECT_STATUSES.has(status) || location === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(location, from);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const resendBody = status === 307 || status === 308;
  const nextMethod = resendBody || method === 'GET' || method === 'HEAD' ? method : 'GET';
  return { url, method: nextMethod, resendBody, crossHost: url.host !== from.host };
}
