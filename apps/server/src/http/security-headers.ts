import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The browser-facing headers of every response, in one place (issue 10 item 1).
 *
 * - Media (`/public/…`): only images (not SVG), audio, video and PDF are shown inline, with their exact type;
 *   everything else — and any extension not listed, such as an older file stored as `.xml` or `.html` — is a
 *   download in a sandbox that runs nothing. PDF gets no CSP `sandbox`: Chromium's viewer refuses to run in a
 *   sandboxed document.
 * - The web app (`/` and its assets): a CSP that runs only its own scripts, with what the app loads allowed by
 *   name (Emotion's inline styles, the help videos' YouTube frames, the socket, customers' avatar URLs, blob and
 *   data previews), never framed by anyone.
 * - `/api/…` answers JSON (and the API docs page, which brings its own scripts): nosniff and the referrer rule.
 *
 * No import of the server's own parts: the web app's Vite config reads WEB_CSP from here for its preview server.
 */

/** what every response carries */
export const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

/** the stored extensions shown inline, with the exact type they are served as */
export const INLINE_MEDIA_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  amr: 'audio/amr',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  weba: 'audio/webm',
  mp4: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
  '3gp': 'video/3gpp',
  pdf: 'application/pdf',
};

/** what a download is confined to if a browser ever renders it */
export const ATTACHMENT_CSP = "default-src 'none'; sandbox";

const extensionOf = (path: string) => {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');

  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/**
 * The headers of a served media file, decided by its stored extension (the decoded path the file was read from).
 * An extension not listed as inline is a download.
 */
export const mediaHeaders = (path: string): Record<string, string> => {
  const extension = extensionOf(path);
  const inline = Object.hasOwn(INLINE_MEDIA_TYPES, extension) ? INLINE_MEDIA_TYPES[extension] : undefined;
  if (inline) return { 'content-type': inline, 'content-disposition': 'inline' };

  return { 'content-disposition': 'attachment', 'content-security-policy': ATTACHMENT_CSP };
};

/** the help videos' player */
const YOUTUBE_FRAMES = ['https://www.youtube.com', 'https://www.youtube-nocookie.com'];

/**
 * The web app's policy. `connect-src 'self'` covers the same-origin websocket in current browsers; `socketOrigins`
 * names it for those that do not (`ws://host wss://host`).
 */
export const webCsp = (opts: { socketOrigins?: string[]; scriptSrc?: string[] } = {}) =>
  [
    "default-src 'self'",
    `script-src ${["'self'", ...(opts.scriptSrc ?? [])].join(' ')}`,
    // MUI/Emotion insert <style> elements and style attributes
    "style-src 'self' 'unsafe-inline'",
    // customers' avatars come from the channels' picture URLs; previews of files being attached are blobs
    "img-src 'self' data: blob: https:",
    // voice notes recorded in the composer are played back from blobs; the simulator's media are data URLs
    "media-src 'self' blob: data:",
    "font-src 'self' data:",
    `connect-src ${["'self'", ...(opts.socketOrigins ?? [])].join(' ')}`,
    `frame-src ${YOUTUBE_FRAMES.join(' ')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

/** the host as the browser names it (the proxy's X-Forwarded-Host with trustProxy), when it is a plain host[:port] */
const socketOrigins = (request: FastifyRequest) => {
  const host = request.host;

  return /^[a-z0-9.-]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/i.test(host) ? [`ws://${host}`, `wss://${host}`] : [];
};

const MEDIA_PREFIX = '/public/';
const MEDIA_ROUTE = `${MEDIA_PREFIX}*`;

/**
 * A URL's path as a server could read it: the query and fragment cut, percent-decoded (`%2F` too), `;` parameters
 * of each segment dropped, repeated slashes collapsed, `.` and `..` resolved, lower-cased. Deliberately wider than
 * the router (which is case-sensitive and keeps `%2F` and `;`), so that every spelling that could reach the media is
 * counted as media. undefined when the path cannot be decoded.
 */
export const normalisedPath = (url: string) => {
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.split(/[?#]/)[0]);
  } catch {
    return undefined;
  }
  const segments: string[] = [];
  for (const segment of decoded.split(/[/\\]+/)) {
    const name = segment.split(';')[0];
    if (name === '..') segments.pop();
    else if (name !== '' && name !== '.') segments.push(name);
  }

  return `/${segments.join('/')}`.toLowerCase();
};

/**
 * Whether a request is for the media folder, decided in one place for the headers and the not-found answer: the
 * route that served it is the media route (the router matched the decoded path), or its normalised path is under
 * `/public/` (a miss, however spelled), or its path cannot be decoded. The file served is the route's decoded `*`.
 */
export const mediaRequest = (request: FastifyRequest): { file?: string } | undefined => {
  if (request.routeOptions.url === MEDIA_ROUTE) {
    return { file: `${MEDIA_PREFIX}${(request.params as { '*'?: string })['*'] ?? ''}` };
  }
  const path = normalisedPath(request.url);
  if (path === undefined || path === '/public' || path.startsWith(MEDIA_PREFIX)) return {};

  return undefined;
};
const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/** the headers a response gets by where it was served from and its status */
export const responseHeaders = (request: FastifyRequest, statusCode: number): Record<string, string> => {
  const path = request.url.split('?')[0];
  const media = mediaRequest(request);
  if (media) {
    // a file served (whole, a range, or not modified); a miss answers JSON and is still never rendered
    const served = media.file !== undefined && (statusCode === 200 || statusCode === 206 || statusCode === 304);
    const headers = served
      ? mediaHeaders(media.file ?? '')
      : { 'content-disposition': 'attachment', 'content-security-policy': ATTACHMENT_CSP };

    return { ...COMMON_HEADERS, ...headers };
  }
  if (isApi(path)) return { ...COMMON_HEADERS };

  return { ...COMMON_HEADERS, 'content-security-policy': webCsp({ socketOrigins: socketOrigins(request) }) };
};

/** sets the headers on every response of the server */
export const registerSecurityHeaders = (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(responseHeaders(request, reply.statusCode));

    return payload;
  });
};
