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
 * The headers of a served media file, decided by its stored extension (the served path, URL-decoded). An
 * extension not listed as inline, or a path that cannot be decoded, is a download.
 */
export const mediaHeaders = (urlPath: string): Record<string, string> => {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    path = '';
  }
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

const isMedia = (path: string) => path.startsWith('/public/');
const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/** the headers a response gets by where it was served from and its status */
export const responseHeaders = (request: FastifyRequest, statusCode: number): Record<string, string> => {
  const path = request.url.split('?')[0];
  if (isMedia(path)) {
    // a file served (whole, a range, or not modified); a miss answers JSON and is still never rendered
    const served = statusCode === 200 || statusCode === 206 || statusCode === 304;
    const media = served
      ? mediaHeaders(path)
      : { 'content-disposition': 'attachment', 'content-security-policy': ATTACHMENT_CSP };

    return { ...COMMON_HEADERS, ...media };
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
