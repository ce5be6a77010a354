// Dev tool: runs the ancestor's own web client (Atendechat v8, github:f12tecnologia/Atendechat-8 at commit
// 6c9165c, folder frontend/, a create-react-app build) against a running Zelo, to check that a client written
// to the spec works unchanged (issue 10). Plain Node, no dependency; nothing of that client is in this repo.
//
// The client calls its backend at REACT_APP_BACKEND_URL (baked in at build time) without the `/api` prefix,
// opens Socket.IO at that URL's origin (a path in the URL would become a Socket.IO namespace, so the backend
// needs an origin of its own) and sends the refresh cookie with `withCredentials`. So this script listens on
// two ports of 127.0.0.1:
//   APP_PORT      serves the client's build folder (SPA fallback to index.html);
//   BACKEND_PORT  forwards to Zelo: /socket.io/… and /public/… unchanged (websocket upgrades included),
//                 everything else with `/api` prepended; answers CORS for the app's origin (with credentials)
//                 and rewrites the refresh cookie's Path=/api/auth to Path=/auth, as a prefixing reverse
//                 proxy would.
//
// Use: build the client (`npm install --legacy-peer-deps`, then REACT_APP_BACKEND_URL=http://127.0.0.1:<BACKEND_PORT>
// NODE_OPTIONS=--openssl-legacy-provider npx react-scripts build: it is react-scripts 3 / webpack 4 on Node 20),
// start Zelo with PUBLIC_URL=http://127.0.0.1:<BACKEND_PORT> (media URLs are absolute), then
//   ZELO_URL=http://127.0.0.1:8080 BUILD_DIR=/path/to/frontend/build APP_PORT=3300 BACKEND_PORT=3301 \
//     node scripts/ancestor-proxy.mjs
// and open http://127.0.0.1:3300/login. PROXY_LOG=1 prints every backend request with its status.
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const ZELO_URL = new URL(process.env.ZELO_URL ?? 'http://127.0.0.1:8080');
const BUILD_DIR = resolve(process.env.BUILD_DIR ?? 'build');
const APP_PORT = Number(process.env.APP_PORT ?? 3300);
const BACKEND_PORT = Number(process.env.BACKEND_PORT ?? 3301);
const HOST = '127.0.0.1';
const LOG = process.env.PROXY_LOG === '1';

if (!existsSync(join(BUILD_DIR, 'index.html'))) {
  console.error(`no index.html in BUILD_DIR=${BUILD_DIR}`);
  process.exit(1);
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.txt': 'text/plain; charset=utf-8',
};

/** The app: a static file of the build, else index.html (client-side routes). */
const app = http.createServer((req, res) => {
  const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  let file = normalize(join(BUILD_DIR, pathname));
  if (!file.startsWith(BUILD_DIR) || !existsSync(file) || !statSync(file).isFile()) {
    file = join(BUILD_DIR, 'index.html');
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});

/** Where a backend path goes on Zelo. */
const target = (url) =>
  url.startsWith('/socket.io') || url.startsWith('/public/') || url.startsWith('/api/') ? url : `/api${url}`;

const cors = (req) => {
  const origin = req.headers.origin;
  if (!origin) return {};

  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'content-disposition',
    vary: 'Origin',
  };
};

const backend = http.createServer((req, res) => {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...cors(req),
      'access-control-allow-methods': 'GET,HEAD,POST,PUT,PATCH,DELETE',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-max-age': '600',
    });
    res.end();
    return;
  }
  const path = target(req.url ?? '/');
  const headers = { ...req.headers, host: ZELO_URL.host };
  delete headers.origin; // Zelo sees a same-origin call, as behind a real reverse proxy
  delete headers.referer;
  const upstream = http.request(
    { hostname: ZELO_URL.hostname, port: ZELO_URL.port, method: req.method, path, headers },
    (answer) => {
      const out = { ...answer.headers, ...cors(req) };
      if (out['set-cookie']) {
        out['set-cookie'] = [out['set-cookie']].flat().map((c) => c.replace(/Path=\/api\//i, 'Path=/'));
      }
      if (LOG) console.log(`${req.method} ${req.url} -> ${path} ${answer.statusCode}`);
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (LOG) console.log(`${req.method} ${req.url} -> ${path} proxy error ${err.message}`);
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', ...cors(req) });
    res.end(`proxy: ${err.message}`);
  });
  req.pipe(upstream);
});

// Websocket upgrades (Socket.IO): replay the request line and headers to Zelo, then splice the two sockets.
backend.on('upgrade', (req, socket, head) => {
  const path = target(req.url ?? '/');
  const headers = { ...req.headers, host: ZELO_URL.host };
  delete headers.origin;
  const upstream = http.request({
    hostname: ZELO_URL.hostname,
    port: ZELO_URL.port,
    method: req.method,
    path,
    headers,
  });
  upstream.on('upgrade', (answer, upSocket, upHead) => {
    const lines = [`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`];
    for (let i = 0; i < answer.rawHeaders.length; i += 2)
      lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (upHead?.length) socket.write(upHead);
    if (head?.length) upSocket.write(head);
    upSocket.pipe(socket).pipe(upSocket);
    upSocket.on('error', () => socket.destroy());
    socket.on('error', () => upSocket.destroy());
  });
  upstream.on('response', (answer) => {
    socket.end(`HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\n\r\n`);
  });
  upstream.on('error', () => socket.destroy());
  upstream.end();
});

app.listen(APP_PORT, HOST, () => console.log(`ancestor client: http://${HOST}:${APP_PORT} (build ${BUILD_DIR})`));
backend.listen(BACKEND_PORT, HOST, () =>
  console.log(`backend: http://${HOST}:${BACKEND_PORT} -> ${ZELO_URL.origin} (/api prefix added)`),
);
