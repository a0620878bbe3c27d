import { describe, expect, it } from 'vitest';
import { SharedBodyBuffer, sharedBodyView } from './shared-body';

describe('SharedBodyBuffer', () => {
  it('writes strings as UTF-8 (like TextEncoder, lone surrogates included) and bytes as they are', () => {
    const shared = new SharedBodyBuffer();
    const text = `héllo ${'x'.repeat(100)} \u{1F600} \uD800 end`;
    const length = shared.write(text);
    const buffer = shared.takeUnannounced() as SharedArrayBuffer;
    expect(Buffer.from(sharedBodyView(buffer, length).body)).toEqual(
      Buffer.from(new TextEncoder().encode(text)),
    );
    const bytes = Uint8Array.from([0, 1, 2, 255]);
    expect(shared.write(bytes)).toBe(4);
    expect([...sharedBodyView(buffer, 4).body]).toEqual([0, 1, 2, 255]);
  });

  it('is announced once per buffer: kept while it fits and is free, replaced when too small or still busy', () => {
    const shared = new SharedBodyBuffer();
    shared.write('a'.repeat(1000));
    const first = shared.takeUnannounced() as SharedArrayBuffer;
    expect(first).toBeInstanceOf(SharedArrayBuffer);
    expect(shared.takeUnannounced()).toBeUndefined();
    shared.write('b'.repeat(1000));
    expect(shared.takeUnannounced()).toBeUndefined();

    shared.markBusy();
    shared.write('c'.repeat(10));
    const second = shared.takeUnannounced() as SharedArrayBuffer;
    expect(second).not.toBe(first);

    shared.markBusy();
    sharedBodyView(second, 10).release();
    shared.write('d'.repeat(100));
    expect(shared.takeUnannounced()).toBeUndefined();

    shared.write('e'.repeat(1501));
    const third = shared.takeUnannounced() as SharedArrayBuffer;
    expect(third.byteLength).toBe(8 + 1501); // 1000 * 1.5 < 1501
  });

  it('grows by at least half its size', () => {
    const shared = new SharedBodyBuffer();
    shared.write(new Uint8Array(1000));
    shared.takeUnannounced();
    shared.write(new Uint8Array(1001));
    expect((shared.takeUnannounced() as SharedArrayBuffer).byteLength).toBe(8 + 1500);
  });

  it('a view that does not fit its buffer is refused', () => {
    const shared = new SharedBodyBuffer();
    shared.write('abc');
    const buffer = shared.takeUnannounced() as SharedArrayBuffer;
    expect(() => sharedBodyView(buffer, 4)).toThrow(RangeError);
  });
});
