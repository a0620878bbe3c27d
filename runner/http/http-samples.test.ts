import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_TAGS } from '../options/option-keys';
import {
  type ExchangeFacts,
  ExchangeTagMemo,
  exchangeSamples,
  exchangeTags,
  httpTagFlags,
  type TagContext,
} from './http-samples';

const ALL = new Set(DEFAULT_SYSTEM_TAGS);

function facts(over: Partial<ExchangeFacts> = {}): ExchangeFacts {
  return {
    method: 'GET',
    tagUrl: 'http://127.0.0.1:1/a',
    tagName: 'http://127.0.0.1:1/a',
    status: 200,
    proto: 'HTTP/1.1',
    tlsVersion: '',
    error: null,
    timings: { blocked: 1, connecting: 0.5, tls_handshaking: 0, sending: 0.25, waiting: 2, receiving: 0.125 },
    endTime: 1_700_000_000_000.5,
    expected: true,
    ...over,
  };
}

const ctx = (over: Partial<TagContext> = {}): TagContext => ({
  vuTags: { scenario: 'default', group: '' },
  userTags: {},
  flags: httpTagFlags(ALL),
  metadata: {},
  ...over,
});

describe('HTTP samples', () => {
  it('emits nine samples in k6 order, stamped with the request end, duration = sending + waiting + receiving', () => {
    const s = exchangeSamples(facts(), ctx());
    expect(s.map((x) => [x.metric, x.value])).toEqual([
      ['http_reqs', 1],
      ['http_req_duration', 2.375],
      ['http_req_blocked', 1],
      ['http_req_connecting', 0.5],
      ['http_req_tls_handshaking', 0],
      ['http_req_sending', 0.25],
      ['http_req_waiting', 2],
      ['http_req_receiving', 0.125],
      ['http_req_failed', 0],
    ]);
    expect(new Set(s.map((x) => x.time))).toEqual(new Set([1_700_000_000_000.5]));
  });

  it('tags a successful request like k6', () => {
    expect(exchangeTags(facts(), ctx())).toEqual({
      scenario: 'default',
      group: '',
      method: 'GET',
      url: 'http://127.0.0.1:1/a',
      name: 'http://127.0.0.1:1/a',
      status: '200',
      proto: 'HTTP/1.1',
      expected_response: 'true',
    });
  });

  it('adds error_code 1000+status for HTTP errors and marks them failed', () => {
    const f = facts({ status: 404, expected: false });
    expect(exchangeTags(f, ctx())).toMatchObject({
      status: '404',
      error_code: '1404',
      expected_response: 'false',
    });
    expect(exchangeTags(f, ctx()).error).toBeUndefined();
    expect(exchangeSamples(f, ctx()).at(-1)).toMatchObject({ metric: 'http_req_failed', value: 1 });
  });

  it('network errors: status 0, error and error_code, no proto', () => {
    const t = exchangeTags(
      facts({
        status: 0,
        proto: '',
        error: { code: 1212, message: 'dial: connection refused' },
        expected: false,
      }),
      ctx(),
    );
    expect(t).toMatchObject({ status: '0', error: 'dial: connection refused', error_code: '1212' });
    expect(t.proto).toBeUndefined();
  });

  it('no response callback: no expected_response tag and no http_req_failed sample', () => {
    const s = exchangeSamples(facts({ expected: undefined }), ctx());
    expect(s).toHaveLength(8);
    expect(s[0].tags.expected_response).toBeUndefined();
  });

  it('a user name tag wins and also becomes the url tag; params.tags override VU tags', () => {
    const t = exchangeTags(facts(), ctx({ userTags: { name: 'home', scenario: 'mine' } }));
    expect(t).toMatchObject({ name: 'home', url: 'home', scenario: 'mine' });
  });

  it('system tags can be switched off; tls_version only with TLS', () => {
    const t = exchangeTags(
      facts({ tlsVersion: 'tls1.3' }),
      ctx({ flags: httpTagFlags(['status', 'tls_version']) }),
    );
    expect(t).toEqual({ scenario: 'default', group: '', status: '200', tls_version: 'tls1.3' });
  });

  it('carries the VU metadata on every sample', () => {
    const s = exchangeSamples(facts(), ctx({ metadata: { vu: '3' } }));
    expect(s.every((x) => x.metadata?.vu === '3')).toBe(true);
  });

  it('a memo hands out one frozen tags object while the exchange repeats, and a new one when any input changes', () => {
    const memo = new ExchangeTagMemo();
    const c = ctx();
    const first = memo.tagsOf(facts(), c);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual(exchangeTags(facts(), c));
    // Fresh but empty params.tags objects (one per call) still count as the same user tags.
    expect(memo.tagsOf(facts({ endTime: 1 }), { ...c, userTags: {} })).toBe(first);
    const notFound = memo.tagsOf(facts({ status: 404, expected: false }), c);
    expect(notFound).not.toBe(first);
    expect(notFound.status).toBe('404');
    expect(memo.tagsOf(facts(), { ...c, vuTags: { scenario: 'other', group: '' } }).scenario).toBe('other');
    expect(memo.tagsOf(facts(), { ...c, userTags: { name: 'n' } }).url).toBe('n');
    // params.tags arrive as a fresh object per call: equal content reuses the tags, another value does not.
    const phased = memo.tagsOf(facts(), { ...c, userTags: { phase: 'idle' } });
    expect(memo.tagsOf(facts(), { ...c, userTags: { phase: 'idle' } })).toBe(phased);
    expect(memo.tagsOf(facts(), { ...c, userTags: { phase: 'drain' } }).phase).toBe('drain');
    expect(memo.tagsOf(facts(), { ...c, userTags: { phase: 'drain', x: '1' } }).x).toBe('1');
    expect(memo.tagsOf(facts(), { ...c, userTags: { phase: 'drain' } }).x).toBeUndefined();
    // Errors are never remembered: their tags carry the message.
    const error = { code: 1212, message: 'dial: i/o timeout' };
    const e1 = memo.tagsOf(facts({ status: 0, error }), c);
    expect(e1.error).toBe('dial: i/o timeout');
    expect(memo.tagsOf(facts({ status: 0, error: { code: 1211, message: 'other' } }), c).error).toBe('other');
  });
});
