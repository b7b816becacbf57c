import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * A tiny static server for a production build (`dist/`), so the page bench measures what a real
 * host sends: every compressible response is gzipped (zlib level 6, nginx's and most CDNs'
 * default), nothing is cached between browser contexts. It logs what it served, as a cross-check
 * of the byte counts the browser reports.
 */

export interface ServedResponse {
  readonly path: string;
  readonly contentType: string;
  readonly rawBytes: number;
  readonly sentBytes: number;
  readonly gzip: boolean;
  /** When the request arrived, ms since the Unix epoch (comparable with the page's performance.timeOrigin + now()). */
  readonly atEpochMs: number;
  /** The request's `Sec-Fetch-Dest`: `script` or `worker` for the page's and its workers' own loads, `empty` for a `fetch()` (the service worker's precache). */
  readonly fetchDest: string;
}

export interface StaticServer {
  readonly url: string;
  readonly served: ServedResponse[];
  stop(): Promise<void>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.map', '.svg', '.wasm', '.txt']);
const GZIP_LEVEL = 6;

/** `pages`: extra HTML documents by URL path (e.g. the bench's own calibration page), served beside the build. */
export async function startStaticServer(root: string, pages: Readonly<Record<string, string>> = {}): Promise<StaticServer> {
  const rootDir = path.resolve(root);
  await stat(path.join(rootDir, 'index.html')).catch(() => {
    throw new Error(`${rootDir} has no index.html: build the app first (npx vite build)`);
  });
  const gzipCache = new Map<string, Buffer>();
  const served: ServedResponse[] = [];

  async function read(urlPath: string): Promise<{ key: string; ext: string; body: Buffer } | null> {
    const extra = Object.hasOwn(pages, urlPath) ? pages[urlPath] : undefined;
    if (extra !== undefined) return { key: `page:${urlPath}`, ext: '.html', body: Buffer.from(extra) };
    const relative = urlPath.endsWith('/') ? `${urlPath}index.html` : urlPath;
    const file = path.join(rootDir, path.normalize(relative));
    if (!file.startsWith(rootDir + path.sep)) return null;
    try {
      return { key: file, ext: path.extname(file).toLowerCase(), body: await readFile(file) };
    } catch {
      return null;
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const atEpochMs = performance.timeOrigin + performance.now();
    const urlPath = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const found = await read(urlPath);
    if (found === null) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const { key, ext, body } = found;
    const contentType = CONTENT_TYPES[ext] ?? 'application/octet-stream';
    const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const gzip = acceptsGzip && COMPRESSIBLE.has(ext);
    let sent = body;
    if (gzip) {
      sent = gzipCache.get(key) ?? gzipSync(body, { level: GZIP_LEVEL });
      gzipCache.set(key, sent);
    }
    response.writeHead(200, {
      'content-type': contentType,
      'content-length': String(sent.length),
      'cache-control': 'no-store',
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : sent);
    served.push({ path: urlPath, contentType, rawBytes: body.length, sentBytes: sent.length, gzip, atEpochMs, fetchDest: String(request.headers['sec-fetch-dest'] ?? '') });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('static server: no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    served,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
