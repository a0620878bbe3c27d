import { describe, expect, it } from 'vitest';
import { parseSecretSources, REDACTED, secretRedactor } from './secrets';

describe('secret sources', () => {
  it('reads file and mock sources with names and a default, as k6 does', () => {
    const files: Record<string, string> = { 'a.secret': 'cool=some\nelse=source\n' };
    const sources = parseSecretSources(
      ['file=a.secret', 'mock=name=another,default,cool=not cool'],
      (p) => files[p],
    );
    expect(sources.get('file')?.get('cool')).toBe('some');
    expect(sources.get('another')?.get('cool')).toBe('not cool');
    expect(sources.get('default')?.get('cool')).toBe('not cool');
    // One source alone is the default.
    expect(parseSecretSources(['mock=k=v']).get('default')?.get('k')).toBe('v');
  });

  it("refuses what k6 refuses, with k6's texts", () => {
    expect(() => parseSecretSources(['nope=x'])).toThrow(
      'no secret source for type "nope" for configuration "nope=x"',
    );
    expect(() => parseSecretSources(['mock=k'])).toThrow('parsing "k", needs =');
    expect(() => parseSecretSources(['mock=default,a=1', 'mock=name=b,default,a=2'])).toThrow(
      "can't have two secret sources that are default ones",
    );
    expect(() => parseSecretSources(['url=x'])).toThrow(/not supported by bench's runner/);
  });

  it('redacts every value, also JSON-escaped, longest first', () => {
    const redact = secretRedactor(parseSecretSources(['mock=a=abc,b=abcdef,c=q"uote']));
    expect(redact?.('x abcdef y abc z')).toBe(`x ${REDACTED} y ${REDACTED} z`);
    expect(redact?.(JSON.stringify('say q"uote'))).toBe(`"say ${REDACTED}"`);
    expect(secretRedactor(parseSecretSources([]))).toBeUndefined();
  });
});
