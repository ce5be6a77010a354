/**
 * `npm run media:to-s3 [-- --from DIR] [--verify full]`: moves a local media folder (default DATA_DIR/media) into
 * the bucket the S3_* variables name (media/to-s3.ts). Run it with the same environment the servers will have
 * with MEDIA_STORE=s3; it may run while the servers still use the folder, then once more after they switched
 * (it moves only what is new). Exit codes: 0 all moved and verified, 1 some file failed (run again), 2 refused.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../config';
import { createProgress, formatBytes, parseArgs } from '../lib/progress';
import { openMediaStore } from './store';
import { moveMediaToS3 } from './to-s3';

const main = async () => {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  if (config.media.store !== 's3') {
    console.error('Set MEDIA_STORE=s3 and S3_BUCKET (S3_ENDPOINT, S3_REGION, keys…) as the servers will run with.');
    return 2;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const from = args.from ? resolve(cwd, args.from) : resolve(config.dataDir, 'media');
  const verify = args.verify === 'full' ? 'full' : 'head';
  const target = await openMediaStore(config.media);
  const progress = createProgress('media → s3');
  const started = Date.now();
  try {
    const report = await moveMediaToS3({
      from,
      target,
      verify,
      onProgress: (r, phase) =>
        progress.update(
          phase === 'move'
            ? `${r.uploaded + r.skipped}/${r.files} files, ${formatBytes(r.bytes)} seen, ${r.skipped} already there`
            : `verifying ${r.verified}/${r.uploaded + r.skipped}`,
        ),
    });
    progress.clear();
    console.log(
      `${report.files} files (${formatBytes(report.bytes)}) in ${from}: ${report.uploaded} uploaded, ${report.skipped} already in s3://${config.media.bucket}/${config.media.prefix}, ${report.verified} verified (${verify}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    for (const p of report.problems) console.log(`  ${p.name}: ${p.reason}`);

    return report.problems.length > 0 ? 1 : 0;
  } finally {
    target.close();
  }
};

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error((err as Error).message);
    process.exit(1);
  },
);
