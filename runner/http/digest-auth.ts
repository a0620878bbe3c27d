// HTTP Digest access authentication (RFC 7616, and RFC 2617's MD5 forms) for `params.auth: "digest"`, answered as
// k6 does: the request goes out without credentials, and a 401 carrying a Digest challenge is answered once with the
// Authorization header computed from it and the URL's user:password.
import { createHash, randomBytes } from 'node:crypto';

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque: string | undefined;
  /** As the server named it (MD5 when it named none). */
  algorithm: string;
  /** The qop options offered, lower case; empty for RFC 2069's form without qop. */
  qop: string[];
}

/** k6 algorithm names -> node:crypto hashes; `-sess` variants hash the first secret with the nonces. */
const HASHES: Record<string, string> = {
  md5: 'md5',
  'sha-256': 'sha256',
  'sha-512-256': 'sha512-256',
};

/** The auth-params of a `WWW-Authenticate: Digest ...` value; undefined when it is not a Digest challenge. */
export function parseDigestChallenge(header: string): DigestChallenge | undefined {
  const match = /(?:^|,\s*)Digest\s+(.*)$/i.exec(header);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  const pair = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g;
  for (let m = pair.exec(match[1]); m !== null; m = pair.exec(match[1])) {
    params[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
  }
  if (params.nonce === undefined) return undefined;
  return {
    realm: params.realm ?? '',
    nonce: params.nonce,
    opaque: params.opaque,
    algorithm: params.algorithm ?? 'MD5',
    qop: (params.qop ?? '')
      .split(',')
      .map((q) => q.trim().toLowerCase())
      .filter((q) => q !== ''),
  };
}

export interface DigestRequest {
  method: string;
  /** The request-target: path and query. */
  uri: string;
  user: string;
  password: string;
  /** The request body, for qop=auth-int. */
  body: Uint8Array | null;
  /** Fixed in tests; random otherwise. */
  cnonce?: string;
}

/** The Authorization header value answering `challenge`, or undefined when its algorithm or qop is not supported. */
export function digestAuthorization(challenge: DigestChallenge, request: DigestRequest): string | undefined {
  const algorithm = challenge.algorithm.toLowerCase();
  const session = algorithm.endsWith('-sess');
  const hashName = HASHES[session ? algorithm.slice(0, -'-sess'.length) : algorithm];
  if (!hashName) return undefined;
  const h = (text: string | Uint8Array) => createHash(hashName).update(text).digest('hex');
  const qop = challenge.qop.length === 0 ? '' : challenge.qop.includes('auth') ? 'auth' : challenge.qop[0];
  if (qop !== '' && qop !== 'auth' && qop !== 'auth-int') return undefined;
  const cnonce = request.cnonce ?? randomBytes(16).toString('hex');
  const nc = '00000001';
  let ha1 = h(`${request.user}:${challenge.realm}:${request.password}`);
  if (session) ha1 = h(`${ha1}:${challenge.nonce}:${cnonce}`);
  const ha2 =
    qop === 'auth-int'
      ? h(`${request.method}:${request.uri}:${h(request.body ?? new Uint8Array())}`)
      : h(`${request.method}:${request.uri}`);
  const response =
    qop === ''
      ? h(`${ha1}:${challenge.nonce}:${ha2}`)
      : h(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${qop}:${ha2}`);
  const quoted = (v: string) => `"${v.replace(/(["\\])/g, '\\$1')}"`;
  const parts = [
    `username=${quoted(request.user)}`,
    `realm=${quoted(challenge.realm)}`,
    `nonce=${quoted(challenge.nonce)}`,
    `uri=${quoted(request.uri)}`,
    `algorithm=${challenge.algorithm}`,
    `response=${quoted(response)}`,
  ];
  if (challenge.opaque !== undefined) parts.push(`opaque=${quoted(challenge.opaque)}`);
  if (qop !== '') parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce=${quoted(cnonce)}`);
  return `Digest ${parts.join(', ')}`;
}
