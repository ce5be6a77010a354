import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/**
 * A real S3-compatible HTTP server on loopback for the media-store tests: s3rver (the S3 REST API over a folder).
 * It answers the object calls Zelo makes (PUT, GET with Range, HEAD, COPY, DELETE, LIST v2, multipart uploads)
 * but checks no signature or permission, and serves presigned URLs as plain GETs.
 */
export type TS3Server = { url: string; env: Record<string, string>; close: () => Promise<void> };

export const startS3Server = async (bucket = 'zelo-media'): Promise<TS3Server> => {
  const directory = mkdtempSync(join(tmpdir(), 'zelo-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    MEDIA_STORE: 's3',
    S3_BUCKET: bucket,
    S3_ENDPOINT: url,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const client = new S3Client({
    endpoint: url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();

  return {
    url,
    env,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};

/** another bucket on the same server (each test file its own) */
export const createBucket = async (s3: TS3Server, bucket: string) => {
  const client = new S3Client({
    endpoint: s3.url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();

  return { ...s3.env, S3_BUCKET: bucket };
};
