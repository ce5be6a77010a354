// Production build of the server: an ES module, apps/server/dist/main.mjs, from src/main.ts (and the
// spreadsheet worker thread's, dist/sheet-worker.mjs, from src/lib/sheets/sheet.worker.ts).
// Our own code (the server and @zelo/shared, which ships TypeScript sources) is bundled; every npm
// dependency stays external and is loaded from node_modules. Migrations are copied next to the bundle.
// `npm start` runs this when the bundle is missing or older than its sources; `node build.mjs` forces it.
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const here = import.meta.dirname;
const root = resolve(here, '../..');
export const SERVER_BUNDLE = join(here, 'dist/main.mjs');

const newest = (path) => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    latest = Math.max(latest, newest(join(path, entry.name)));
  }

  return latest;
};

/** true when the bundle is missing or older than anything it is built from */
export const serverBuildIsStale = () => {
  if (!existsSync(SERVER_BUNDLE)) return true;
  const sources = Math.max(
    newest(join(here, 'src')),
    newest(join(root, 'packages/shared/src')),
    newest(join(here, 'package.json')),
    newest(join(here, 'build.mjs')),
  );

  return statSync(SERVER_BUNDLE).mtimeMs < sources;
};

export const buildServer = async () => {
  const { build } = await import('esbuild');
  // every npm package stays external (loaded from node_modules at run time), except the workspace
  // package @zelo/shared, whose sources are TypeScript
  const externalPackages = {
    name: 'external-packages',
    setup: (b) => {
      b.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('@zelo/') ? undefined : { path: args.path, external: true },
      );
    },
  };
  const dist = join(here, 'dist');
  rmSync(dist, { recursive: true, force: true });
  const result = await build({
    // the spreadsheet worker thread is its own entry (lib/sheets/sheet-pool.ts starts dist/sheet-worker.mjs)
    entryPoints: { main: join(here, 'src/main.ts'), 'sheet-worker': join(here, 'src/lib/sheets/sheet.worker.ts') },
    outdir: dist,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [externalPackages],
    metafile: true,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    // the bundle runs as an ES module: give the CommonJS helpers esbuild may need a `require`
    banner: {
      js: "import { createRequire as __zeloCreateRequire } from 'node:module';\nconst require = __zeloCreateRequire(import.meta.url);",
    },
  });
  cpSync(join(here, 'src/db/migrations'), join(dist, 'migrations'), { recursive: true });

  return result;
};

// `node build.mjs` builds; `node build.mjs --if-stale` only when the bundle is out of date
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!process.argv.includes('--if-stale') || serverBuildIsStale()) {
    const started = Date.now();
    await buildServer();
    console.log(`server built: ${SERVER_BUNDLE} (${Date.now() - started} ms)`);
  }
}
