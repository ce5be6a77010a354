import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 20 item 1: one outbound path. No server module but lib/outbound.ts opens a connection of its own —
 * global fetch, undici, node:http(s) requests, raw sockets, HTTP client packages — so every URL a tenant can
 * aim passes the SSRF guard. A module that truly needs its own door goes in ALLOWED with the reason; an entry
 * that no longer matches anything fails too, so the list stays true.
 */

const SRC = resolve(__dirname, '..');

const ALLOWED: Record<string, string> = {
  'lib/outbound.ts': 'the one outbound path: the guard, the pinned address, the checked redirects',
  'modules/invoices/asaas.ts':
    "the platform's own billing provider at ASAAS_API_URL, set by the operator; no tenant can aim it",
  'backup/snapshot.ts':
    "a Unix socket in the server's own DATA_DIR (the backup asks the running embedded server for a copy); never a network address",
};

const PATTERNS: [string, RegExp][] = [
  ['global fetch', /(?<![\w.$])fetch\s*\(/],
  ['globalThis.fetch', /globalThis\.fetch\b/],
  ['undici', /(from\s+|require\(\s*|import\(\s*)['"]undici['"]/],
  ['node:http(s) value import', /import\s+(?!type\b)[^;]*?from\s+['"](node:)?https?['"]/],
  ['require http(s)', /require\(\s*['"](node:)?https?['"]\s*\)/],
  ['http(s).request/get', /\bhttps?\.(request|get)\s*\(/],
  ['raw sockets', /\b(net|tls)\.(connect|createConnection)\s*\(|new\s+(net\.)?Socket\s*\(/],
  [
    'node:net/tls connect import',
    /import\s+(?!type\b)[^;]*\b(connect|createConnection|Socket)\b[^;]*from\s+['"](node:)?(net|tls)['"]/,
  ],
  [
    'HTTP client packages',
    /(from\s+|require\(\s*|import\(\s*)['"](axios|got|node-fetch|superagent|needle|request|ky|openai)['"]/,
  ],
];

/** the server's source files, tests and test helpers left out */
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' || name === 'fixtures' ? [] : sources(path);
    return /\.(ts|mts|js)$/.test(name) && !/\.test\.ts$|\.fixtures\.ts$|\.tenancy\.ts$/.test(name) ? [path] : [];
  });

/** the file without comments (a comment may name fetch) */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const findings = () =>
  sources(SRC).flatMap((path) => {
    const text = code(readFileSync(path, 'utf8'));
    const file = relative(SRC, path).split('\\').join('/');

    return PATTERNS.filter(([, re]) => re.test(text)).map(([what]) => ({ file, what }));
  });

describe('the one outbound path', () => {
  it('no module outside lib/outbound.ts opens its own connection (the exceptions named with a reason)', () => {
    const found = findings();
    expect(found.filter((f) => !ALLOWED[f.file])).toEqual([]);
    // every exception still earns its place
    for (const file of Object.keys(ALLOWED)) {
      expect(
        found.some((f) => f.file === file),
        `${file} is allowed but opens nothing`,
      ).toBe(true);
    }
  });

  it('the patterns catch the forms they name', () => {
    const samples = [
      "const r = await fetch('http://x');",
      'const r = await globalThis.fetch(url);',
      "import { request } from 'undici';",
      "import http from 'node:http';",
      "import { get } from 'https';",
      "const h = require('node:https');",
      'http.request(url, cb);',
      'net.connect(80, host);',
      "import { connect } from 'node:tls';",
      "import axios from 'axios';",
      "const { default: got } = await import('got');",
    ];
    for (const sample of samples) {
      expect(
        PATTERNS.some(([, re]) => re.test(code(sample))),
        sample,
      ).toBe(true);
    }
    for (const sample of [
      "import type { Server } from 'node:http';",
      'await outboundFetch(url);',
      'await io.fetchSockets();',
      '// fetch(url) in a comment',
      "import { BlockList, isIP } from 'node:net';",
      "app.addHook('request', hook);",
    ]) {
      expect(
        PATTERNS.some(([, re]) => re.test(code(sample))),
        sample,
      ).toBe(false);
    }
  });
});
