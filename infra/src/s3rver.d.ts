// s3rver ships no types; this declares the part of its API that infra/src/s3-server.ts uses.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    /** Where buckets and objects are kept, as plain files. */
    directory?: string;
    silent?: boolean;
    resetOnClose?: boolean;
    /** Off: requests name the bucket in the path (path-style), never in the host name. */
    vhostBuckets?: boolean;
    allowMismatchedSignatures?: boolean;
    /** Created at start when missing. */
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
