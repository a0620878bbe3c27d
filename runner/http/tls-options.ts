// k6's `tlsVersion` and `tlsCipherSuites` options as Node's TLS client options. k6 reads them when it decodes the
// script's options, so a name it does not know stops the run at load (exit 104) with k6's text.

/** What the VU's connector passes to tls.connect. */
export interface TlsClientOptions {
  minVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  maxVersion?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  /** OpenSSL cipher list (TLS 1.2 and earlier suites, then every TLS 1.3 suite). */
  ciphers?: string;
}

const VERSIONS: Record<string, NonNullable<TlsClientOptions['minVersion']>> = {
  'tls1.0': 'TLSv1',
  'tls1.1': 'TLSv1.1',
  'tls1.2': 'TLSv1.2',
  'tls1.3': 'TLSv1.3',
};

/** k6's cipher suite names (Go's) -> OpenSSL's. */
const SUITES: Record<string, string> = {
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
};

/** TLS 1.3's suites: Go does not let them be configured (all three are always offered), and OpenSSL names them alike. */
const TLS13_SUITES = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

function version(value: unknown, problems: string[]): TlsClientOptions['minVersion'] {
  if (value === undefined || value === null || value === '') return undefined;
  const found = typeof value === 'string' ? VERSIONS[value] : undefined;
  if (!found)
    problems.push(
      `tlsVersion: unknown TLS version '${String(value)}' (use ${Object.keys(VERSIONS).join(', ')})`,
    );
  return found;
}

/** The TLS client options of the consolidated `tlsVersion` and `tlsCipherSuites`, or problems (exit 104). */
export function tlsClientOptions(
  tlsVersion: unknown,
  tlsCipherSuites: unknown,
  problems: string[],
): TlsClientOptions {
  const out: TlsClientOptions = {};
  if (typeof tlsVersion === 'object' && tlsVersion !== null) {
    const { min, max, ...rest } = tlsVersion as Record<string, unknown>;
    for (const key of Object.keys(rest))
      problems.push(`tlsVersion: unknown field "${key}" (use min and max)`);
    out.minVersion = version(min, problems);
    out.maxVersion = version(max, problems);
  } else {
    out.minVersion = out.maxVersion = version(tlsVersion, problems);
  }
  if (tlsCipherSuites !== undefined && tlsCipherSuites !== null) {
    if (!Array.isArray(tlsCipherSuites)) {
      problems.push('tlsCipherSuites must be a list of cipher suite names');
    } else {
      const names: string[] = [];
      for (const name of tlsCipherSuites) {
        const openssl =
          typeof name === 'string'
            ? (SUITES[name] ?? (TLS13_SUITES.includes(name) ? '' : undefined))
            : undefined;
        if (openssl === undefined) problems.push(`tlsCipherSuites: unknown cipher suite '${String(name)}'`);
        else if (openssl !== '') names.push(openssl);
      }
      out.ciphers = [...names, ...TLS13_SUITES].join(':');
    }
  }
  for (const key of ['minVersion', 'maxVersion', 'ciphers'] as const)
    if (out[key] === undefined) delete out[key];
  return out;
}
