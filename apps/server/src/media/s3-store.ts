/**
 * The S3-compatible media store (MEDIA_STORE=s3), through the AWS SDK v3: AWS S3, MinIO, Cloudflare R2,
 * Backblaze B2 and the like. One object per media file under `S3_PREFIX<name>`. A Buffer goes up in one PUT; a
 * stream goes through lib-storage's Upload (8 MB parts, 4 at once: a multipart upload past the first part), so a
 * large file never sits whole in memory. Each object carries its SHA-256 (`x-amz-meta-sha256`) when Zelo knows
 * it, which lets `duplicate` make a server-side copy for a campaign's recipients instead of uploading the bytes
 * again, and lets the move command (media/to-s3.ts) verify what it moved. Objects are written with a type that a
 * browser would not run (the inline media types, else `application/octet-stream` as an attachment), should the
 * bucket ever be made public; Zelo itself serves them through its own route (media/serve.ts).
 *
 * The SDK's optional request checksums are asked only where S3 requires them: several S3-compatible stores
 * refuse the newer checksum headers.
 */
import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { TMediaConfig } from '../config';
import { mediaHeaders } from '../http/security-headers';
import { rangeWithin, sha256Hex, type TByteRange, type TMediaStore } from './store';

type TS3Config = Extract<TMediaConfig, { store: 's3' }>;

const PART_BYTES = 8 * 1024 * 1024;

const status = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (err: unknown) => {
  const name = (err as { name?: string }).name;
  return name === 'NoSuchKey' || name === 'NotFound' || status(err) === 404;
};

/** what the object is labelled with in the bucket (never a type a browser runs) */
const objectType = (name: string) => {
  const headers = mediaHeaders(name);
  return headers['content-type']
    ? { ContentType: headers['content-type'], ContentDisposition: 'inline' }
    : { ContentType: 'application/octet-stream', ContentDisposition: 'attachment' };
};

const rangeHeader = (range: TByteRange) =>
  'suffix' in range ? `bytes=-${range.suffix}` : `bytes=${range.start}-${range.end ?? ''}`;

/** `bytes 0-9/100` → its parts */
const parseContentRange = (value: string | undefined) => {
  const m = value ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value) : null;
  return m ? { start: Number(m[1]), end: Number(m[2]), size: Number(m[3]) } : undefined;
};

export const createS3Client = (media: TS3Config) =>
  new S3Client({
    region: media.region,
    endpoint: media.endpoint,
    forcePathStyle: media.forcePathStyle,
    credentials:
      media.accessKeyId && media.secretAccessKey
        ? { accessKeyId: media.accessKeyId, secretAccessKey: media.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

export const createS3Store = (media: TS3Config): TMediaStore => {
  const client = createS3Client(media);
  const Bucket = media.bucket;
  const keyOf = (name: string) => `${media.prefix}${name}`;

  const head = async (name: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(name) }));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  };

  return {
    kind: 's3',
    put: async (name, body, opts = {}) => {
      const sha256 = opts.sha256 ?? (Buffer.isBuffer(body) ? sha256Hex(body) : undefined);
      const Metadata: Record<string, string> = sha256 ? { sha256 } : {};
      const params = { Bucket, Key: keyOf(name), Metadata, ...objectType(name) };
      if (Buffer.isBuffer(body) && body.length <= PART_BYTES) {
        await client.send(new PutObjectCommand({ ...params, Body: body, ContentLength: body.length }));
        return;
      }
      const upload = new Upload({
        client,
        params: { ...params, Body: body as Buffer | Readable },
        partSize: PART_BYTES,
        queueSize: 4,
        leavePartsOnError: false,
      });
      await upload.done();
    },
    read: async (name) => {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(name) }));
        return Buffer.from(await res.Body!.transformToByteArray());
      } catch (err) {
        if (isMissing(err)) throw Object.assign(new Error(`media file ${name} not found`), { code: 'ENOENT' });
        throw err;
      }
    },
    open: async (name, asked) => {
      let range = asked;
      if (range && 'suffix' in range) {
        // the last n bytes, asked as an explicit range (not every S3-compatible store reads `bytes=-n`)
        const found = await head(name);
        if (!found) return undefined;
        const within = rangeWithin(range, found.ContentLength ?? 0);
        if (!within) return 'unsatisfiable';
        range = within;
      }
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket, Key: keyOf(name), Range: range ? rangeHeader(range) : undefined }),
        );
        const body = res.Body as Readable;
        const length = res.ContentLength ?? 0;
        const parsed = parseContentRange(res.ContentRange);
        if (range && !parsed) {
          // a store that ignores Range answers the whole object: cut the range here
          const within = rangeWithin(range, length);
          body.destroy();
          if (!within) return 'unsatisfiable';
          const again = await client.send(
            new GetObjectCommand({ Bucket, Key: keyOf(name), Range: `bytes=${within.start}-${within.end}` }),
          );
          return {
            body: again.Body as Readable,
            length: within.end - within.start + 1,
            size: length,
            range: within,
            etag: again.ETag,
            lastModified: again.LastModified,
          };
        }

        return {
          body,
          length,
          size: parsed?.size ?? length,
          range: parsed ? { start: parsed.start, end: parsed.end } : undefined,
          etag: res.ETag,
          lastModified: res.LastModified,
        };
      } catch (err) {
        if (isMissing(err)) return undefined;
        if (status(err) === 416 || (err as { name?: string }).name === 'InvalidRange') return 'unsatisfiable';
        throw err;
      }
    },
    stat: async (name) => {
      const res = await head(name);
      return res ? { size: res.ContentLength ?? 0, sha256: res.Metadata?.sha256 } : undefined;
    },
    remove: async (name) => {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(name) }));
    },
    duplicate: async (source, name, data) => {
      const found = await head(source);
      if (!found || found.ContentLength !== data.length || found.Metadata?.sha256 !== sha256Hex(data)) return false;
      await client.send(
        new CopyObjectCommand({
          Bucket,
          Key: keyOf(name),
          CopySource: `${Bucket}/${encodeURIComponent(keyOf(source)).replaceAll('%2F', '/')}`,
          MetadataDirective: 'REPLACE',
          Metadata: { sha256: found.Metadata.sha256 },
          ...objectType(name),
        }),
      );

      return true;
    },
    list: async function* () {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: media.prefix || undefined, ContinuationToken }),
        );
        for (const item of page.Contents ?? []) {
          const name = (item.Key ?? '').slice(media.prefix.length);
          if (name && !name.includes('/')) yield { name, size: item.Size ?? 0 };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    close: () => client.destroy(),
  };
};
