import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import S3rver from 's3rver';

/** Where the export storage is and how to sign in to it: what the worker's S3_* settings say. */
export interface S3Endpoint {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface RunningS3Server extends S3Endpoint {
  stop(): Promise<void>;
}

/**
 * The only credentials s3rver accepts (it checks SigV4 signatures against them). It listens on
 * loopback only, so they guard nothing but the wiring.
 */
const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * An S3-compatible server (the `s3rver` npm package) in this process, with its buckets and
 * objects as plain files under `dataDir`, and `bucket` created when missing. The export storage
 * of `npm start` and of the tests: the worker's S3 adapter speaks the real protocol to it.
 */
export async function startS3Server(options: {
  dataDir: string;
  port: number;
  bucket: string;
}): Promise<RunningS3Server> {
  const directory = resolve(options.dataDir);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    directory,
    silent: true,
    vhostBuckets: false,
    configureBuckets: [{ name: options.bucket }],
  });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    region: 'us-east-1',
    bucket: options.bucket,
    ...S3RVER_CREDENTIALS,
    stop: () => server.close(),
  };
}

/** The worker's settings for this server. */
export function s3WorkerEnv(s3: S3Endpoint): Record<string, string> {
  return {
    EXPORT_STORAGE: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}
