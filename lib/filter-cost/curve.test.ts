import { describe, expect, it } from 'vitest';
import { thin } from './curve';

describe('thin', () => {
  it('keeps short curves whole and thins long ones evenly, first and last kept', () => {
    expect(thin([1, 2, 3], 5)).toEqual([1, 2, 3]);
    const long = Array.from({ length: 1000 }, (_, i) => i);
    const out = thin(long, 5);
    expect(out).toEqual([0, 250, 500, 749, 999]);
  });
});
