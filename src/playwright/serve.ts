/**
 * A static file server for the built page (dist/app in the package), on a free loopback port, so
 * the fixture needs no web server of the engineer's own. It serves files under its root only.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The file a request path names under `root`, or null when it leaves the root or is no file. */
function fileFor(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^[/\\]+/, '');
  const path = join(root, relative);
  if (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  try {
    return statSync(path).isFile() ? path : null;
  } catch {
    return null;
  }
}

export function serveDirectory(root: string): Promise<StaticServer> {
  const server: Server = createServer((request, response) => {
    const path = request.method === 'GET' || request.method === 'HEAD' ? fileFor(root, request.url ?? '/') : null;
    if (path === null) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    if (request.method === 'HEAD') response.end();
    else createReadStream(path).pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('lockstep: the page server has no port'));
      resolve({
        url: `http://127.0.0.1:${address.port}/`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
