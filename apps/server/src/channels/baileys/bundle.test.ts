import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The server runs as one ES module bundle with its npm packages external (build.mjs), under plain Node:
 * there, CommonJS Baileys exposes only the exports Node's lexer finds (not `proto`). This bundles the
 * driver the same way, runs it in a Node process of its own without a network, and checks what Vitest's
 * module loader would hide: the library loads, stored keys revive as protobuf objects, and a session that
 * cannot reach WhatsApp reports its retries and DISCONNECTED, then exits cleanly.
 */

const here = import.meta.dirname;
const server = resolve(here, '../../..');
// under node_modules of the server, so the bundle finds its external packages as the real one does
const dir = join(server, 'node_modules/.cache/zelo-baileys-bundle-test', String(process.pid));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENTRY = `
import { createMemoryAuthStateStore } from ${JSON.stringify(join(here, '../auth-state.repo.ts'))};
import { loadDbAuthState } from ${JSON.stringify(join(here, 'auth-state.ts'))};
import { createBaileysDriver } from ${JSON.stringify(join(here, 'baileys.driver.ts'))};
import { loadBaileysKit } from ${JSON.stringify(join(here, 'baileys.loader.ts'))};

const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, level: 'silent' };
log.child = () => log;
const out = {};
const kit = await loadBaileysKit();
const store = createMemoryAuthStateStore();
const auth = await loadDbAuthState(store, 1, kit);
out.noiseKeyIsBuffer = Buffer.isBuffer(auth.state.creds.noiseKey.private);
await auth.state.keys.set({ 'app-state-sync-key': { AAAA: { keyData: Buffer.from([1, 2, 3]), timestamp: 5 } } });
const again = await loadDbAuthState(store, 1, kit);
const key = (await again.state.keys.get('app-state-sync-key', ['AAAA'])).AAAA;
out.appStateKey = { type: key?.constructor?.name, keyData: [...(key?.keyData ?? [])] };
const states = [];
const session = createBaileysDriver({
  store,
  log,
  loadKit: async () => kit,
  timings: { maxRetries: 1, backoffMs: () => 10, connectTimeoutMs: 3000 },
})({ id: 1, companyId: 1, provider: 'baileys' }, {
  onState: async (s) => void states.push({ status: s.status, retries: s.retries }),
  onMessage: async () => undefined,
  onMessageUpdate: async () => undefined,
  onCall: async () => undefined,
});
await session.start();
const end = Date.now() + 20000;
while (states.at(-1)?.status !== 'DISCONNECTED' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
await session.stop();
out.states = states;
console.log(JSON.stringify(out));
`;

describe('the Baileys driver in the server bundle under plain Node', () => {
  it('loads the library, revives stored keys, and reports an unreachable WhatsApp without hanging the process', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'entry.ts'), ENTRY);
    await build({
      entryPoints: [join(dir, 'entry.ts')],
      outfile: join(dir, 'entry.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      plugins: [
        {
          name: 'external-packages',
          setup: (b) => {
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@zelo/') ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
    // the process must end by itself: a socket or timer left behind would keep it alive until the timeout
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'entry.mjs')], {
      cwd: server,
      timeout: 40_000,
    });
    const out = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    expect(out.noiseKeyIsBuffer).toBe(true);
    expect(out.appStateKey).toEqual({ type: 'AppStateSyncKeyData', keyData: [1, 2, 3] });
    expect(out.states[0]).toEqual({ status: 'OPENING', retries: 0 });
    expect(out.states).toContainEqual({ status: 'OPENING', retries: 1 });
    expect(out.states.at(-1).status).toBe('DISCONNECTED');
  }, 60_000);
});
