// `bench emulator` flags -> config: defaults, sizes and paces with units, and the errors that name the flag.
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CONFIG, isLoopbackHost, parseFlags, parseThroughput } from './config';

describe('emulator flags', () => {
  it('defaults: loopback 8787, memory, 2 GiB backlog, 128 MiB eventual tail, unpaced indexing', () => {
    expect(parseFlags([])).toEqual(DEFAULT_CONFIG);
    expect(DEFAULT_CONFIG).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      dataDir: null,
      backlogLimitBytes: 2_147_483_648,
      eventualTailLimitBytes: 134_217_728,
      indexBytesPerSecond: Number.POSITIVE_INFINITY,
    });
  });

  it('server limits: connections, requests in progress, queue delay and the node:http timeouts', () => {
    expect(DEFAULT_CONFIG).toMatchObject({
      maxConnections: 4096,
      maxPendingRequests: 1024,
      maxQueueDelayMs: 1000,
      headersTimeoutMs: 60_000,
      requestTimeoutMs: 300_000,
      keepAliveTimeoutMs: 65_000,
    });
    expect(
      parseFlags([
        ...['--max-connections', '500', '--max-pending-requests', '64', '--max-queue-delay', '0'],
        ...['--headers-timeout', '2s', '--request-timeout', '4s', '--keep-alive-timeout', '5s'],
      ]),
    ).toMatchObject({
      maxConnections: 500,
      maxPendingRequests: 64,
      maxQueueDelayMs: 0,
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 5000,
    });
    expect(() => parseFlags(['--max-connections', '0'])).toThrow(
      new ConfigError('--max-connections: expected a whole number from 1 to 1000000, got "0"'),
    );
    expect(() => parseFlags(['--request-timeout', '0s'])).toThrow(
      new ConfigError('--request-timeout: must be above 0, got "0s"'),
    );
    expect(() => parseFlags(['--headers-timeout', '10s', '--request-timeout', '5s'])).toThrow(
      new ConfigError('--headers-timeout: must not exceed --request-timeout (10000 ms > 5000 ms)'),
    );
  });

  it('parses every flag', () => {
    expect(
      parseFlags([
        '--host=::1',
        '--port',
        '0',
        '--data-dir',
        '/tmp/x',
        '--backlog-limit',
        '1.5GiB',
        '--eventual-tail-limit',
        '64MB',
        '--index-throughput',
        '32MiB/s',
        '--index-burst',
        '300MiB',
        '--api-key',
        'k',
        '--truncate-damaged-log',
        '--max-inflight-bytes',
        '256MiB',
      ]),
    ).toMatchObject({
      host: '::1',
      port: 0,
      dataDir: '/tmp/x',
      backlogLimitBytes: 1_610_612_736,
      eventualTailLimitBytes: 64_000_000,
      indexBytesPerSecond: 33_554_432,
      indexBurstBytes: 314_572_800,
      apiKey: 'k',
      truncateDamagedLog: true,
      maxInflightBytes: 268_435_456,
    });
    expect(parseFlags(['--help'])).toBe('help');
  });

  it.each([
    ['32MiB', 33_554_432],
    ['32MiB/s', 33_554_432],
    ['10 MB per second', 10_000_000],
    ['unlimited', Number.POSITIVE_INFINITY],
    ['4096', 4096],
  ])('index throughput %j = %d bytes/s', (text, bytes) => {
    expect(parseThroughput(text)).toBe(bytes);
  });

  it.each([
    [['--port', '65536'], '--port: expected a whole number from 0 to 65535, got "65536"'],
    [['--backlog-limit', 'lots'], '--backlog-limit: invalid size "lots"'],
    [['--index-throughput', 'fast'], '--index-throughput: invalid size "fast"'],
    [['--index-throughput', '0/s'], '--index-throughput: must be above 0'],
    [['--index-burst', '1GiB'], '--index-burst: only applies with a paced --index-throughput'],
    [['--index-throughput', '1MiB', '--index-burst', 'most'], '--index-burst: invalid size "most"'],
    [['--api-key', ''], '--api-key: expected a non-empty key'],
    [['--host', '10.0.0.5'], '--host 10.0.0.5 is not a loopback address'],
    [['--truncate-damaged-log'], '--truncate-damaged-log: only applies with --data-dir'],
    [['--max-inflight-bytes', '0'], '--max-inflight-bytes: must be above 0'],
    [['--latency-model', 'fast'], '--latency-model: expected "service" or "none", got "fast"'],
    [
      ['--latency-model', 'none', '--commit-interval', '1s'],
      '--commit-interval: has no effect with --latency-model none',
    ],
    [
      ['--commit-interval', '5'],
      '--commit-interval: expected a duration of 0 or more with its unit, like "12ms" or "1s", got "5"',
    ],
    [['--strong-read-latency=-3ms'], '--strong-read-latency: expected a duration of 0 or more'],
    [['--cold-round-trips', '2.5'], '--cold-round-trips: expected a whole number from 0 to 100, got "2.5"'],
    [['--nope'], "Unknown option '--nope'"],
    [['extra'], 'Unexpected argument'],
  ])('%j is refused: %s', (argv, message) => {
    expect(() => parseFlags(argv)).toThrow(ConfigError);
    expect(() => parseFlags(argv)).toThrow(message);
  });

  it('the latency model: the service figures by default, each settable, none switches it off', () => {
    expect(DEFAULT_CONFIG.latency).toEqual({
      strongReadMs: 12,
      commitIntervalMs: 1000,
      objectPutMs: 100,
      objectGetMs: 63,
      coldRoundTrips: 4,
    });
    expect(
      parseFlags([
        '--strong-read-latency',
        '10ms',
        '--commit-interval',
        '200ms',
        '--object-put-latency',
        '0.05s',
        '--object-get-latency',
        '0',
        '--cold-round-trips',
        '3',
      ]),
    ).toMatchObject({
      latency: {
        strongReadMs: 10,
        commitIntervalMs: 200,
        objectPutMs: 50,
        objectGetMs: 0,
        coldRoundTrips: 3,
      },
    });
    expect(parseFlags(['--latency-model', 'none'])).toMatchObject({ latency: null });
    expect(parseFlags(['--latency-model', 'service'])).toEqual(DEFAULT_CONFIG);
  });

  it('binds elsewhere only with --allow-remote', () => {
    expect(parseFlags(['--host', '0.0.0.0', '--allow-remote'])).toMatchObject({
      host: '0.0.0.0',
      allowRemote: true,
    });
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '::', '192.168.1.1', 'example.com'].some(isLoopbackHost)).toBe(false);
  });
});
