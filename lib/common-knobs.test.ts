import { describe, expect, it } from 'vitest';
import { drawSeed, isLoopback } from './common-knobs';

describe('isLoopback', () => {
  it.each([
    ['http://127.0.0.1:8787', true],
    ['http://127.1.2.3', true],
    ['http://localhost:1', true],
    ['http://[::1]:8787', true],
    ['http://127.0.0.1.example.com', false],
    ['http://128.0.0.1', false],
    ['https://gcp-us-central1.turbopuffer.com', false],
  ])('%s -> %s', (url, expected) => {
    expect(isLoopback(url)).toBe(expected);
  });
});

describe('drawSeed', () => {
  it('keeps a given SEED (0 included) and otherwise draws a 32-bit unsigned integer', () => {
    expect(drawSeed(42)).toBe(42);
    expect(drawSeed(0)).toBe(0);
    const drawn = drawSeed();
    expect(Number.isInteger(drawn) && drawn >= 0 && drawn < 2 ** 32).toBe(true);
  });
});
