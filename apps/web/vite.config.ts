import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { COMMON_HEADERS, webCsp } from '../server/src/http/security-headers';
import { bundleReport } from './vite-bundle-report';
import { emojibase } from './vite-emojibase';
import { precompress } from './vite-precompress';

const API_TARGET = 'http://localhost:8080';

/** the server's own headers for the web app (apps/server/src/http/security-headers.ts) */
const headers = (csp: string) => ({ ...COMMON_HEADERS, 'content-security-policy': csp });

export default defineConfig({
  plugins: [react(), emojibase(), precompress(), bundleReport()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: {
    port: 5173,
    // development only: the React refresh preamble Vite writes into index.html is an inline script
    headers: headers(webCsp({ scriptSrc: ["'unsafe-inline'"] })),
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/socket.io': { target: API_TARGET, ws: true, changeOrigin: true },
      '/public': { target: API_TARGET, changeOrigin: true },
    },
  },
  preview: {
    // the built app, as the server serves it
    headers: headers(webCsp()),
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/socket.io': { target: API_TARGET, ws: true, changeOrigin: true },
      '/public': { target: API_TARGET, changeOrigin: true },
    },
  },
});
