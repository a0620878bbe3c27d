// One HTTP exchange -> its tags and its nine samples in k6's order (docs/k6-behaviour.md §3.1, §3.2). Pure.
import { isEmptyRecord, type SampleInput } from '../metrics/sample';
import { statusErrorCode } from './error-codes';
import type { PhaseTimings, WireError } from './wire';

/** What the samples of one exchange (one redirect hop) are built from. */
export interface ExchangeFacts {
  method: string;
  /** Masked URL of this hop. */
  tagUrl: string;
  /** Masked URL or http.url template of this hop. */
  tagName: string;
  status: number;
  proto: string;
  tlsVersion: string;
  error: WireError | null;
  timings: PhaseTimings;
  endTime: number;
  /** undefined: response callback disabled (null): no expected_response tag, no http_req_failed sample. */
  expected: boolean | undefined;
}

/** Which request-level system tags are enabled, looked up once per VU rather than per sample. */
export interface HttpTagFlags {
  method: boolean;
  url: boolean;
  name: boolean;
  status: boolean;
  proto: boolean;
  tls_version: boolean;
  error: boolean;
  error_code: boolean;
  expected_response: boolean;
}

export function httpTagFlags(systemTags: Iterable<string>): HttpTagFlags {
  const on = new Set(systemTags);
  return {
    method: on.has('method'),
    url: on.has('url'),
    name: on.has('name'),
    status: on.has('status'),
    proto: on.has('proto'),
    tls_version: on.has('tls_version'),
    error: on.has('error'),
    error_code: on.has('error_code'),
    expected_response: on.has('expected_response'),
  };
}

/** The VU's tags, the call's params.tags and the enabled system tags, fixed for one request. */
export interface TagContext {
  vuTags: Readonly<Record<string, string>>;
  userTags: Record<string, string>;
  flags: HttpTagFlags;
  metadata: Record<string, string>;
}

/** run/scenario/group tags < params.tags < request system tags; a user `name` wins and then also sets `url`. */
export function exchangeTags(facts: ExchangeFacts, ctx: TagContext): Record<string, string> {
  // Copied key by key: object spread followed by added keys is far slower in V8 on this hot path.
  const tags: Record<string, string> = {};
  for (const key in ctx.vuTags) tags[key] = ctx.vuTags[key];
  for (const key in ctx.userTags) tags[key] = ctx.userTags[key];
  const on = ctx.flags;
  const userName = ctx.userTags.name;
  if (on.method) tags.method = facts.method;
  if (on.url) tags.url = userName ?? facts.tagUrl;
  if (on.name && userName === undefined) tags.name = facts.tagName;
  if (on.status) tags.status = String(facts.status);
  if (facts.error) {
    if (on.error) tags.error = facts.error.message;
    if (on.error_code) tags.error_code = String(facts.error.code);
  } else {
    if (on.proto && facts.proto) tags.proto = facts.proto;
    if (on.tls_version && facts.tlsVersion) tags.tls_version = facts.tlsVersion;
    const code = statusErrorCode(facts.status);
    if (code && on.error_code) tags.error_code = String(code);
  }
  if (facts.expected !== undefined && on.expected_response) tags.expected_response = String(facts.expected);
  return tags;
}

/** Same keys and values (params.tags is a fresh object per call, usually with the same few tags). */
function sameTags(a: Record<string, string>, b: Record<string, string>): boolean {
  if (a === b) return true;
  let n = 0;
  for (const key in a) {
    if (a[key] !== b[key]) return false;
    n++;
  }
  for (const _ in b) n--;
  return n === 0;
}

/**
 * One VU's last exchange tags, reused (same frozen object) while everything they are built from is unchanged: a load
 * loop repeats one request, and samples sharing a frozen tag set are encoded by identity, not re-keyed
 * (runner/metrics/sample-batch.ts).
 */
export class ExchangeTagMemo {
  private last:
    | (Pick<
        ExchangeFacts,
        'method' | 'tagUrl' | 'tagName' | 'status' | 'proto' | 'tlsVersion' | 'expected'
      > & {
        vuTags: Readonly<Record<string, string>>;
        userTags: Record<string, string>;
        flags: HttpTagFlags;
        tags: Readonly<Record<string, string>>;
      })
    | undefined;

  tagsOf(facts: ExchangeFacts, ctx: TagContext): Readonly<Record<string, string>> {
    const l = this.last;
    if (
      l !== undefined &&
      facts.error === null &&
      l.method === facts.method &&
      l.status === facts.status &&
      l.tagUrl === facts.tagUrl &&
      l.tagName === facts.tagName &&
      l.proto === facts.proto &&
      l.tlsVersion === facts.tlsVersion &&
      l.expected === facts.expected &&
      l.vuTags === ctx.vuTags &&
      l.flags === ctx.flags &&
      sameTags(l.userTags, ctx.userTags)
    )
      return l.tags;
    const tags = Object.freeze(exchangeTags(facts, ctx));
    // Error tags carry the message: not worth remembering.
    this.last =
      facts.error === null
        ? {
            method: facts.method,
            status: facts.status,
            tagUrl: facts.tagUrl,
            tagName: facts.tagName,
            proto: facts.proto,
            tlsVersion: facts.tlsVersion,
            expected: facts.expected,
            vuTags: ctx.vuTags,
            userTags: ctx.userTags,
            flags: ctx.flags,
            tags,
          }
        : undefined;
    return tags;
  }
}

/**
 * http_reqs, http_req_duration, blocked, connecting, tls_handshaking, sending, waiting, receiving, http_req_failed.
 * With a memo, repeated identical exchanges share one frozen tags object.
 */
export function exchangeSamples(
  facts: ExchangeFacts,
  ctx: TagContext,
  memo?: ExchangeTagMemo,
): SampleInput[] {
  const tags = memo ? memo.tagsOf(facts, ctx) : exchangeTags(facts, ctx);
  const t = facts.timings;
  const time = facts.endTime;
  const metadata = isEmptyRecord(ctx.metadata) ? undefined : ctx.metadata;
  // All samples of one exchange share the tags object (and metadata): consumers must not mutate them.
  const sample = (metric: string, value: number): SampleInput =>
    metadata ? { metric, time, value, tags, metadata } : { metric, time, value, tags };
  const samples = [
    sample('http_reqs', 1),
    sample('http_req_duration', t.sending + t.waiting + t.receiving),
    sample('http_req_blocked', t.blocked),
    sample('http_req_connecting', t.connecting),
    sample('http_req_tls_handshaking', t.tls_handshaking),
    sample('http_req_sending', t.sending),
    sample('http_req_waiting', t.waiting),
    sample('http_req_receiving', t.receiving),
  ];
  if (facts.expected !== undefined) samples.push(sample('http_req_failed', facts.expected ? 0 : 1));
  return samples;
}
