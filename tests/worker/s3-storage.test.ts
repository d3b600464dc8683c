import {
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { parseWorkerConfig } from '@locus/worker';
import { createHash } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exportStorageFromConfig,
  s3Storage,
  type S3StorageOptions,
} from '../../services/worker/src/providers/storage';
import { testEnvironment } from '../support/environment';

// The S3 export storage against the private S3-compatible server (s3rver) that `npm test`
// starts: the adapter's real requests, read back with the SDK's own GetObject. No mocked SDK.

let s3: ReturnType<typeof testEnvironment.s3>;
let reader: S3Client;
let base: S3StorageOptions;
const run = `run-${Date.now().toString(36)}`;

beforeAll(() => {
  s3 = testEnvironment.s3();
  base = { ...s3, forcePathStyle: true };
  reader = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
});

afterAll(() => reader.destroy());

async function read(key: string): Promise<{ body: string; contentType: string | undefined }> {
  const object: GetObjectCommandOutput = await reader.send(
    new GetObjectCommand({ Bucket: s3.bucket, Key: key }),
  );
  return {
    body: (await object.Body?.transformToString('utf8')) ?? '',
    contentType: object.ContentType,
  };
}

/** A port nothing listens on: the OS gave it out a moment ago and it was closed again. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('S3 export storage', () => {
  it('puts an object that reads back with the same body and content type', async () => {
    const storage = s3Storage(base);
    const key = `${run}/team/session/export.json`;
    const body = JSON.stringify([{ PhoneNumber: '+12025550121', Latitude: 38.9, Address: 'Ærø' }]);
    await storage.put(key, body, 'application/json');
    expect(await read(key)).toEqual({ body, contentType: 'application/json' });
    expect(storage.name).toBe('s3');
    expect(storage.describe(key)).toBe(`s3://${s3.bucket}/${key}`);
    // The same key again (a retried job) replaces the object.
    await storage.put(key, '[]', 'application/json');
    expect((await read(key)).body).toBe('[]');
    storage.close();
  });

  it('keeps a key with unicode, spaces and slashes exactly, under the configured prefix', async () => {
    const storage = s3Storage({ ...base, prefix: `/${run}/prefix/` });
    const key = 'équipe/séance 1/chat_+12025550121_2026-11-29T10:00:00.000Z 名前 ✓.txt';
    const text = 'Dispatcher: ¿Dónde está?\nCaller: 在这里\n';
    await storage.put(key, text, 'text/plain; charset=utf-8');
    const stored = `${run}/prefix/${key}`;
    expect(storage.describe(key)).toBe(`s3://${s3.bucket}/${stored}`);
    expect(await read(stored)).toEqual({ body: text, contentType: 'text/plain; charset=utf-8' });
    const listed = await reader.send(
      new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${run}/prefix/` }),
    );
    expect(listed.Contents?.map((object) => object.Key)).toEqual([stored]);
    storage.close();
  });

  it('rejects a put to a bucket that does not exist, naming the bucket but not the key', async () => {
    const storage = s3Storage({ ...base, bucket: 'locus-no-such-bucket' });
    const key = `${run}/team/session/+12025550121_2026-11-29T10:00:00.000Z.json`;
    const failure = await storage.put(key, '[]', 'application/json').then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/bucket "locus-no-such-bucket"/);
    expect(failure?.message).toMatch(/NoSuchBucket/);
    expect(failure?.message).not.toContain('+12025550121');
    storage.close();
  });

  it('rejects within seconds when nothing listens at the endpoint', async () => {
    const storage = s3Storage({ ...base, endpoint: `http://127.0.0.1:${await closedPort()}` });
    const started = Date.now();
    await expect(storage.put(`${run}/refused.json`, '[]', 'application/json')).rejects.toThrow(
      new RegExp(`bucket "${s3.bucket}" failed: .*ECONNREFUSED`),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    storage.close();
  });

  it('gives up on a server that accepts the connection and never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      // Each attempt waits at most requestTimeoutMs for a byte …
      const perAttempt = s3Storage({ ...base, endpoint, requestTimeoutMs: 300 });
      let started = Date.now();
      await expect(perAttempt.put(`${run}/silent.json`, '[]', 'application/json')).rejects.toThrow(
        /failed: TimeoutError/,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      perAttempt.close();
      // … and the whole put, retries included, at most totalTimeoutMs.
      const whole = s3Storage({ ...base, endpoint, requestTimeoutMs: 60_000, totalTimeoutMs: 500 });
      started = Date.now();
      await expect(whole.put(`${run}/silent.json`, '[]', 'application/json')).rejects.toThrow(
        /failed: no answer within 500 ms/,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      whole.close();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('asks for server-side encryption only when configured, and sends no checksum trailer', async () => {
    // A pass-through proxy in front of s3rver (which ignores SSE) that records what is sent.
    const seen: IncomingHttpHeaders[] = [];
    const target = new URL(s3.endpoint);
    const proxy: Server = createServer((incoming, outgoing) => {
      seen.push(incoming.headers);
      const upstream = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const plain = s3Storage({ ...base, endpoint });
      await plain.put(`${run}/plain.json`, '[1]', 'application/json');
      const encrypted = s3Storage({ ...base, endpoint, serverSideEncryption: 'AES256' });
      await encrypted.put(`${run}/encrypted.json`, '[2]', 'application/json');
      expect(seen).toHaveLength(2);
      expect(seen[0]?.['x-amz-server-side-encryption']).toBeUndefined();
      expect(seen[1]?.['x-amz-server-side-encryption']).toBe('AES256');
      for (const headers of seen) {
        expect(headers['content-encoding']).toBeUndefined();
        expect(Object.keys(headers).filter((name) => name.startsWith('x-amz-checksum'))).toEqual(
          [],
        );
      }
      expect((await read(`${run}/encrypted.json`)).body).toBe('[2]');
      plain.close();
      encrypted.close();
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('streams a put of known length, however long the upload takes', async () => {
    // An exported recording: 3 MB in pieces, as the worker reads it chunk by chunk.
    const pieces = Array.from({ length: 48 }, (_, index) => Buffer.alloc(65_536, index));
    const whole = Buffer.concat(pieces);
    // One attempt may wait 400 ms for an answer; this upload takes longer than that (a slow
    // uplink), which must not count against it: only a silent socket does.
    const storage = s3Storage({ ...base, requestTimeoutMs: 400 });
    async function* slowly() {
      for (const piece of pieces) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        yield piece;
      }
    }
    const key = `${run}/team/session/media/001-recording.webm`;
    await storage.putStream(key, Readable.from(slowly()), whole.length, 'video/webm');
    const stored = await storage.get(key);
    expect(stored && createHash('sha256').update(stored).digest('hex')).toBe(
      createHash('sha256').update(whole).digest('hex'),
    );

    // A body that fails halfway fails the put with its reason (not a deadline's, a minute on).
    // What the server keeps of a request cut short is its own: S3 keeps nothing of a body shorter
    // than its Content-Length, while s3rver may keep what arrived. The export that failed is
    // not marked stored either way, and its next attempt writes the key whole.
    async function* failing() {
      yield Buffer.alloc(65_536, 1);
      throw new Error('chunk 2 is missing');
    }
    const broken = `${run}/team/session/media/002-recording.webm`;
    await expect(
      storage.putStream(broken, Readable.from(failing()), 131_072, 'video/webm'),
    ).rejects.toThrow('chunk 2 is missing');
    // A body shorter than announced is refused, not stored as if whole.
    await expect(
      storage.putStream(broken, Readable.from([Buffer.alloc(1_000)]), 2_000, 'video/webm'),
    ).rejects.toThrow();
    storage.close();
  });

  it('is what the worker uses with EXPORT_STORAGE=s3', async () => {
    const config = parseWorkerConfig({
      DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/locus',
      REDIS_URL: 'redis://127.0.0.1:6379',
      EXPORT_STORAGE: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_PREFIX: `${run}/configured`,
    });
    const storage = exportStorageFromConfig(config);
    await storage.put('team/session/export.json', '[]', 'application/json');
    expect(storage.describe('team/session/export.json')).toBe(
      `s3://${s3.bucket}/${run}/configured/team/session/export.json`,
    );
    expect(await read(`${run}/configured/team/session/export.json`)).toEqual({
      body: '[]',
      contentType: 'application/json',
    });
  });
});
