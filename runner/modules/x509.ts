// k6/crypto/x509 (docs: javascript-api/k6-crypto-x509): parse, getAltNames, getIssuer and getSubject of a PEM
// certificate, with k6's field names, over node:crypto's X509Certificate (plus the certificate's signature algorithm,
// which Node does not expose, read from its DER).
import { createHash, X509Certificate } from 'node:crypto';
import { isArrayBuffer } from './cross-realm';

/** Attribute short names (as Node prints them) -> OIDs (as k6 shows a name's type). */
const OIDS: Record<string, string> = {
  CN: '2.5.4.3',
  SN: '2.5.4.4',
  serialNumber: '2.5.4.5',
  C: '2.5.4.6',
  L: '2.5.4.7',
  ST: '2.5.4.8',
  street: '2.5.4.9',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  postalCode: '2.5.4.17',
  emailAddress: '1.2.840.113549.1.9.1',
};

/** Signature algorithm OIDs -> Go's names, which k6 shows. */
const SIGNATURE_ALGORITHMS: Record<string, string> = {
  '1.2.840.113549.1.1.4': 'MD5-RSA',
  '1.2.840.113549.1.1.5': 'SHA1-RSA',
  '1.2.840.113549.1.1.11': 'SHA256-RSA',
  '1.2.840.113549.1.1.12': 'SHA384-RSA',
  '1.2.840.113549.1.1.13': 'SHA512-RSA',
  '1.2.840.113549.1.1.10': 'SHA256-RSAPSS',
  '1.2.840.10040.4.3': 'DSA-SHA1',
  '1.2.840.10045.4.1': 'ECDSA-SHA1',
  '1.2.840.10045.4.3.2': 'ECDSA-SHA256',
  '1.2.840.10045.4.3.3': 'ECDSA-SHA384',
  '1.2.840.10045.4.3.4': 'ECDSA-SHA512',
  '1.3.101.112': 'Ed25519',
};

function pemText(encoded: unknown): string {
  if (typeof encoded === 'string') return encoded;
  if (isArrayBuffer(encoded)) return Buffer.from(encoded).toString('utf8');
  if (ArrayBuffer.isView(encoded))
    return Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength).toString('utf8');
  throw new Error('failed to decode certificate PEM file');
}

function certificate(encoded: unknown): X509Certificate {
  const text = pemText(encoded);
  if (!/-----BEGIN [A-Z ]+-----/.test(text)) throw new Error('failed to decode certificate PEM file');
  try {
    return new X509Certificate(text);
  } catch (error) {
    throw new Error(`failed to parse certificate: ${(error as Error).message}`);
  }
}

/** One DER element at `at`: its tag, where its content starts and ends. */
function derElement(der: Buffer, at: number): { tag: number; start: number; end: number } {
  const tag = der[at];
  let length = der[at + 1];
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i];
    start += bytes;
  }
  return { tag, start, end: start + length };
}

function oidText(bytes: Buffer): string {
  const parts = [Math.floor(bytes[0] / 40), bytes[0] % 40];
  let value = 0;
  for (const b of bytes.subarray(1)) {
    value = value * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm SEQUENCE { OID, ... }, signature }. */
function signatureAlgorithm(der: Buffer): string {
  try {
    const outer = derElement(der, 0);
    const tbs = derElement(der, outer.start);
    const algorithm = derElement(der, tbs.end);
    const oid = derElement(der, algorithm.start);
    const text = oidText(der.subarray(oid.start, oid.end));
    return SIGNATURE_ALGORITHMS[text] ?? text;
  } catch {
    return '';
  }
}

/** Node's multi-line `KEY=value` distinguished name as k6's names list and fields. */
function distinguishedName(text: string) {
  const names: Array<{ type: string; value: string }> = [];
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq);
    names.push({ type: OIDS[key] ?? key, value: line.slice(eq + 1) });
  }
  const all = (oid: string) => names.filter((n) => n.type === oid).map((n) => n.value);
  const first = (oid: string) => all(oid)[0] ?? '';
  return { names, all, first };
}

function subjectOf(cert: X509Certificate) {
  const dn = distinguishedName(cert.subject);
  return {
    commonName: dn.first('2.5.4.3'),
    country: dn.first('2.5.4.6'),
    postalCode: dn.first('2.5.4.17'),
    stateOrProvinceName: dn.first('2.5.4.8'),
    localityName: dn.first('2.5.4.7'),
    streetAddress: dn.first('2.5.4.9'),
    organizationName: dn.first('2.5.4.10'),
    organizationalUnitName: dn.all('2.5.4.11'),
    names: dn.names,
  };
}

function issuerOf(cert: X509Certificate) {
  const dn = distinguishedName(cert.issuer);
  return {
    commonName: dn.first('2.5.4.3'),
    country: dn.first('2.5.4.6'),
    stateOrProvinceName: dn.first('2.5.4.8'),
    localityName: dn.first('2.5.4.7'),
    organizationName: dn.first('2.5.4.10'),
    names: dn.names,
  };
}

/** DNS names, then e-mail addresses, then IP addresses, then URIs, as Go lists them. */
function altNamesOf(cert: X509Certificate): string[] {
  const groups: Record<string, string[]> = { DNS: [], email: [], 'IP Address': [], URI: [] };
  for (const part of (cert.subjectAltName ?? '').split(/,\s*/)) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    groups[part.slice(0, colon)]?.push(part.slice(colon + 1));
  }
  return [...groups.DNS, ...groups.email, ...groups['IP Address'], ...groups.URI];
}

/** RFC 3339 without fractions, as Go's time.RFC3339 prints UTC times. */
const rfc3339 = (text: string) => new Date(text).toISOString().replace(/\.\d{3}Z$/, 'Z');

function publicKeyOf(cert: X509Certificate) {
  const key = cert.publicKey;
  const type = key.asymmetricKeyType;
  const algorithm =
    type === 'rsa' || type === 'rsa-pss' ? 'RSA' : type === 'ec' ? 'ECDSA' : type === 'dsa' ? 'DSA' : '';
  if (!algorithm) throw new Error('unsupported public key algorithm');
  return { algorithm, key: key.export({ format: 'jwk' }) };
}

export function createX509Module(): Record<string, unknown> {
  const members = {
    parse(encoded: unknown) {
      const cert = certificate(encoded);
      return {
        subject: subjectOf(cert),
        issuer: issuerOf(cert),
        notBefore: rfc3339(cert.validFrom),
        notAfter: rfc3339(cert.validTo),
        altNames: altNamesOf(cert),
        signatureAlgorithm: signatureAlgorithm(cert.raw),
        fingerPrint: [...createHash('sha1').update(cert.raw).digest()],
        publicKey: publicKeyOf(cert),
      };
    },
    getAltNames: (encoded: unknown) => altNamesOf(certificate(encoded)),
    getIssuer: (encoded: unknown) => issuerOf(certificate(encoded)),
    getSubject: (encoded: unknown) => subjectOf(certificate(encoded)),
  };
  return { ...members, default: members };
}
