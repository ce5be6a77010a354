// `npm start`: builds the web app and the server bundle when they are missing or older than their
// sources, then runs the bundled server (apps/server/dist/main.mjs, plain Node: no TypeScript transform
// at start) in this same process (API, realtime, jobs and the web app on one port).
// ZELO_SERVER=tsx runs the server's sources through tsx instead (apps/server/src/main.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const web = join(root, 'apps/web');
const built = join(web, 'dist/index.html');

const newest = (dir) => {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }

  return latest;
};

const sources = Math.max(
  newest(join(web, 'src')),
  newest(join(root, 'packages/shared/src')),
  statSync(join(web, 'index.html')).mtimeMs,
  // the build's own steps (the emoji data it copies into dist)
  statSync(join(web, 'vite.config.ts')).mtimeMs,
  statSync(join(web, 'vite-emojibase.ts')).mtimeMs,
);
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  console.log('Building the web app…');
  const result = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.env.ZELO_SERVER === 'tsx') {
  const { register } = await import('tsx/esm/api');
  register();
  await import(join(root, 'apps/server/src/main.ts'));
} else {
  const { buildServer, serverBuildIsStale, SERVER_BUNDLE } = await import(join(root, 'apps/server/build.mjs'));
  if (serverBuildIsStale()) {
    console.log('Building the server…');
    await buildServer();
  }
  await import(SERVER_BUNDLE);
}
