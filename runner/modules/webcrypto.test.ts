import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { crossRealmCrypto } from './webcrypto';

/** Runs `body` (an async function body) in a fresh vm context, as a hosted VU's script runs, with `crypto` given. */
async function inContext(body: string, crypto: unknown): Promise<unknown> {
  const context = createContext({ crypto, TextEncoder });
  return await runInContext(`(async () => { ${body} })()`, context);
}

const SCRIPT = `
  const hex = (b) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');
  const data = new ArrayBuffer(4);
  new Uint8Array(data).set([1, 2, 3, 4]);
  const raw = new ArrayBuffer(16);
  new Uint8Array(raw).fill(7);
  const key = await crypto.subtle.importKey('raw', raw, { name: 'AES-GCM' }, true, ['encrypt', 'decrypt']);
  const iv = new ArrayBuffer(12);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, data);
  const opened = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, sealed);
  const macKey = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  const mac = await crypto.subtle.sign('HMAC', macKey, data);
  const ok = await crypto.subtle.verify('HMAC', macKey, mac, data);
  const digest = await crypto.subtle.digest('SHA-256', data);
  const random = crypto.getRandomValues(new Uint8Array(8));
  return { opened: hex(opened), mac: hex(mac), ok, digest: hex(digest), random: random.length, uuid: crypto.randomUUID() };
`;

describe('WebCrypto in a vm context (hosted VUs)', () => {
  it("the thread's own crypto refuses the script's ArrayBuffers (why the wrapper exists)", async () => {
    await expect(inContext(SCRIPT, globalThis.crypto)).rejects.toThrow('not instance of ArrayBuffer');
  });

  it("accepts the script's ArrayBuffers in arguments and algorithm parameters", async () => {
    const { createHash, createHmac } = await import('node:crypto');
    const data = Buffer.from([1, 2, 3, 4]);
    const result = (await inContext(SCRIPT, crossRealmCrypto())) as Record<string, unknown>;
    expect(result.opened).toBe('01020304');
    expect(result.mac).toBe(createHmac('sha256', Buffer.alloc(16, 7)).update(data).digest('hex'));
    expect(result.ok).toBe(true);
    expect(result.digest).toBe(createHash('sha256').update(data).digest('hex'));
    expect(result.random).toBe(8);
    expect(result.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
