import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { ObjectStorage } from './index';

export interface S3StorageOptions {
  /** An S3-compatible server (MinIO, the embedded one of `npm start`); unset: AWS itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Both or neither: without them the SDK's default chain applies (instance role, AWS_* env). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `http://host/bucket/key` rather than `http://bucket.host/key`: what most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Put before every key, e.g. `locus/exports` for `locus/exports/<team>/…`. */
  prefix?: string;
  /** Server-side encryption asked of S3 for every object; unset: the bucket's own default. */
  serverSideEncryption?: ServerSideEncryption;
  /** Opening a connection (default 5 s). */
  connectionTimeoutMs?: number;
  /** One attempt, from sending the request to S3's answer, and the longest silence on the socket (default 30 s). */
  requestTimeoutMs?: number;
  /** The whole put, the SDK's own retries included (default 60 s). */
  totalTimeoutMs?: number;
}

/**
 * Files as objects in an S3 bucket (AWS, MinIO, or any S3-compatible server). An object is
 * stored whole or not at all, so no temporary name is needed. A failed put rejects: the export
 * job is retried by BullMQ and the failure is recorded; a failed photo upload is refused.
 */
export function s3Storage(options: S3StorageOptions): ObjectStorage {
  const {
    bucket,
    connectionTimeoutMs = 5_000,
    requestTimeoutMs = 30_000,
    totalTimeoutMs = 60_000,
  } = options;
  const prefix = options.prefix?.replace(/^\/+|\/+$/g, '') ?? '';
  const objectKey = (key: string) => (prefix ? `${prefix}/${key}` : key);
  const credentials =
    options.accessKeyId && options.secretAccessKey
      ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
      : undefined;
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials,
    // Since v3.729 the SDK adds a CRC32 checksum to every upload by default: an
    // `x-amz-checksum-crc32` header for a body of known length, an `aws-chunked` body with a
    // trailer for a stream. AWS checks it; many S3-compatible servers do not know it: some refuse
    // the headers (older MinIO and Ceph releases, several hosted S3 look-alikes), and s3rver
    // stores a chunked body with its framing (tried: `c\r\nhello…\r\n0\r\nx-amz-checksum-crc32:…`
    // comes back). PutObject does not require a checksum, so one is sent only where an operation
    // requires it; SigV4's payload hash and TLS already protect the body in transit.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A storage outage must fail the attempt promptly (the job retries later), not hold a worker
    // slot on a socket that never answers. Without throwOnRequestTimeout the handler only logs a
    // warning when requestTimeout passes and goes on waiting (tried: a server that accepts and
    // never answers held a put for good).
    requestHandler: {
      connectionTimeout: connectionTimeoutMs,
      requestTimeout: requestTimeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: requestTimeoutMs,
    },
    maxAttempts: 3,
  });

  const putObject = (
    key: string,
    body: string | Uint8Array | Readable,
    contentType: string,
    bytes?: number,
  ) =>
    new PutObjectCommand({
      Bucket: bucket,
      Key: objectKey(key),
      Body: body,
      ...(bytes === undefined ? {} : { ContentLength: bytes }),
      ContentType: contentType,
      ...(options.serverSideEncryption
        ? { ServerSideEncryption: options.serverSideEncryption }
        : {}),
    });

  return {
    name: 's3',
    describe: (key) => `s3://${bucket}/${objectKey(key)}`,
    async put(key, body, contentType) {
      const deadline = AbortSignal.timeout(totalTimeoutMs);
      try {
        await client.send(putObject(key, body, contentType), { abortSignal: deadline });
      } catch (error) {
        if (deadline.aborted)
          throw storageError(new Error(`no answer within ${totalTimeoutMs} ms`), bucket, '');
        throw storageError(error, bucket, objectKey(key));
      }
    },
    async putStream(key, body, bytes, contentType) {
      // The whole put's deadline grows with the body: at least 1 MB/s, the SDK's retries aside
      // (a stream is sent once: it cannot be read again for a retry).
      const deadline = AbortSignal.timeout(totalTimeoutMs + Math.ceil(bytes / 1_000_000) * 1_000);
      // A body that fails (a chunk missing from storage) ends the request at once: the SDK would
      // otherwise wait for the rest of the declared length until the deadline.
      const failed = new AbortController();
      body.once('error', (error) => failed.abort(error));
      try {
        await client.send(putObject(key, body, contentType, bytes), {
          abortSignal: AbortSignal.any([deadline, failed.signal]),
          // No limit on one attempt: the SDK's request timeout runs from sending the request to
          // the answer, which for a big body is its whole upload. A silent socket still fails
          // after requestTimeoutMs (socketTimeout), and the deadline bounds it all.
          requestTimeout: 0,
        });
        // A stream is sent unsigned (UNSIGNED-PAYLOAD) and without a checksum: the stored
        // length, at least, must be the body's.
        const stored = await client.send(
          new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }),
          { abortSignal: AbortSignal.timeout(totalTimeoutMs) },
        );
        if (stored.ContentLength !== bytes)
          throw new Error(`stored ${String(stored.ContentLength)} bytes, not ${bytes}`);
      } catch (error) {
        body.destroy();
        if (failed.signal.aborted) throw failed.signal.reason as Error;
        if (deadline.aborted)
          throw storageError(new Error('no answer in time for the stream'), bucket, '');
        throw storageError(error, bucket, objectKey(key));
      }
    },
    async get(key) {
      const deadline = AbortSignal.timeout(totalTimeoutMs);
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }),
          { abortSignal: deadline },
        );
        if (!object.Body) return null;
        return Buffer.from(await object.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        if (deadline.aborted)
          throw storageError(
            new Error(`no answer within ${totalTimeoutMs} ms`),
            bucket,
            '',
            'read',
          );
        throw storageError(error, bucket, objectKey(key), 'read');
      }
    },
    async delete(key) {
      // S3 answers 204 for a key that does not exist: a retried purge is not an error.
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }), {
          abortSignal: AbortSignal.timeout(totalTimeoutMs),
        });
      } catch (error) {
        throw storageError(error, bucket, objectKey(key), 'delete');
      }
    },
    close: () => client.destroy(),
  };
}

/**
 * The error says which bucket failed and why, but not the key: an export's key holds the
 * caller's phone number, and this message is logged and kept with the failed job. (S3 names the
 * resource in some messages, e.g. AccessDenied's `arn:aws:s3:::bucket/key`. Export keys are two
 * ids and a file name, so a short key, which could match by chance, is never one.)
 */
function storageError(
  error: unknown,
  bucket: string,
  key: string,
  operation: 'upload' | 'read' | 'delete' = 'upload',
): Error {
  const cause = error instanceof Error ? error : new Error(String(error));
  const status = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const message = key.length >= 16 ? cause.message.split(key).join('<key>') : cause.message;
  const reason = [
    cause.name !== 'Error' ? cause.name : undefined,
    status ? `HTTP ${status}` : undefined,
    message,
  ]
    .filter(Boolean)
    .join(': ');
  const wrapped = new Error(
    `S3 ${operation} ${operation === 'upload' ? 'to' : 'in'} bucket "${bucket}" failed: ${reason}`,
  );
  wrapped.name = 'ExportStorageError';
  return wrapped;
}
