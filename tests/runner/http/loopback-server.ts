// A node:http server on 127.0.0.1:0 for k6/http tests: fixed routes with exact, predictable answers.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface LoopbackServer {
  url: string;
  server: Server;
  /** Requests seen, in arrival order (method + path). */
  seen: string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Reads a body slowly (a pause after every chunk) so an upload stays in flight for a while. */
async function readSlowly(req: IncomingMessage): Promise<number> {
  let bytes = 0;
  for await (const chunk of req) {
    bytes += (chunk as Buffer).length;
    req.pause();
    await new Promise((r) => setTimeout(r, 2));
    req.resume();
  }
  return bytes;
}

async function handle(req: IncomingMessage, res: ServerResponse, seen: string[]): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const parts = url.pathname.split('/').filter(Boolean);
  if (parts[0] === 'slow-upload') {
    const bytes = await readSlowly(req);
    seen.push(`upload-complete ${bytes}`);
    res.end(String(bytes));
    return;
  }
  const body = await readBody(req);
  switch (parts[0]) {
    case 'status': {
      res.writeHead(Number(parts[1]), { 'content-type': 'text/plain' });
      res.end(`status ${parts[1]}`);
      return;
    }
    case 'echo': {
      res.writeHead(200, { 'content-type': 'application/json', 'x-multi': ['a', 'b'] });
      res.end(
        JSON.stringify({
          method: req.method,
          path: req.url,
          headers: req.headers,
          body: body.toString('utf8'),
          bodyBytes: body.length,
        }),
      );
      return;
    }
    case 'sha256': {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          bytes: body.length,
          sha256: createHash('sha256').update(body).digest('hex'),
          type: req.headers['content-type'] ?? null,
        }),
      );
      return;
    }
    case 'redirect-307-sha256': {
      res.writeHead(307, { location: '/sha256' });
      res.end();
      return;
    }
    case 'delay': {
      await new Promise((r) => setTimeout(r, Number(parts[1])));
      res.end('late');
      return;
    }
    case 'redirect': {
      const n = Number(parts[1]);
      res.writeHead(302, { location: n > 1 ? `/redirect/${n - 1}` : '/echo' });
      res.end();
      return;
    }
    case 'redirect-307': {
      res.writeHead(307, { location: '/echo' });
      res.end();
      return;
    }
    case 'set-cookie': {
      res.writeHead(200, { 'set-cookie': [...url.searchParams].map(([k, v]) => `${k}=${v}; Path=/`) });
      res.end('ok');
      return;
    }
    case 'set-cookie-redirect': {
      res.writeHead(302, { 'set-cookie': 'hop=1; Path=/', location: '/echo' });
      res.end();
      return;
    }
    case 'gzip': {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      res.end(gzipSync(Buffer.from('{"zipped":true}')));
      return;
    }
    case 'bytes': {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(Number(parts[1]), 7));
      return;
    }
    case 'form-page': {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<form method="post" action="/echo?via=form"><input name="user" value="ann"><input name="role" value="dev">' +
          '<input type="submit" name="go" value="Go"></form><form id="g" action="echo"><input name="q" value="1"></form>' +
          '<a class="x" href="/echo?from=link">next</a>',
      );
      return;
    }
    case 'digest-auth': {
      // /digest-auth/<user>/<password>, as httpbin's: a Digest challenge (MD5, qop=auth), then the answer checked.
      const [user, password] = [parts[1], parts[2]];
      const nonce = 'bench-nonce-1';
      const header = req.headers.authorization ?? '';
      const field = (name: string) => new RegExp(`${name}="?([^",]*)"?`).exec(header)?.[1] ?? '';
      const md5 = (text: string) => createHash('md5').update(text).digest('hex');
      const expected = md5(
        `${md5(`${user}:bench:${password}`)}:${nonce}:${field('nc')}:${field('cnonce')}:auth:${md5(`${req.method}:${field('uri')}`)}`,
      );
      if (!header.startsWith('Digest ') || field('response') !== expected || field('uri') !== req.url) {
        res.writeHead(401, {
          'www-authenticate': `Digest realm="bench", qop="auth", nonce="${nonce}", opaque="o-1", algorithm=MD5`,
        });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ authenticated: true, user, body: body.toString('utf8') }));
      return;
    }
    case 'json': {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          items: [
            { id: 1, name: 'a' },
            { id: 2, name: 'b' },
          ],
        }),
      );
      return;
    }
    default:
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
  }
}

export async function startLoopbackServer(): Promise<LoopbackServer> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handle(req, res, seen).catch((err) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  // Idle connections stay open for the whole test file, so connection counts never change behind a test's back.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
