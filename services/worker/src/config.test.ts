import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseWorkerConfig } from './config';
import { exportStorageFromConfig } from './providers/storage';

const minimal = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/locus',
  REDIS_URL: 'redis://localhost:6379',
};

describe('export storage configuration', () => {
  it('writes local files by default', () => {
    const config = parseWorkerConfig(minimal);
    expect(config.EXPORT_STORAGE).toBe('local');
    const storage = exportStorageFromConfig(config);
    expect(storage.name).toBe('local');
    expect(storage.describe('team/session/file.json')).toMatch(
      /\/\.data\/exports\/team\/session\/file\.json$/,
    );
  });

  it('refuses s3 without a bucket, naming the setting', () => {
    expect(() => parseWorkerConfig({ ...minimal, EXPORT_STORAGE: 's3' })).toThrow(
      /S3_BUCKET: required with EXPORT_STORAGE=s3/,
    );
    // An empty value in an env file is no bucket either.
    expect(() => parseWorkerConfig({ ...minimal, EXPORT_STORAGE: 's3', S3_BUCKET: '' })).toThrow(
      /S3_BUCKET: required with EXPORT_STORAGE=s3/,
    );
  });

  it('refuses a key id without its secret, and an unknown storage or encryption', () => {
    expect(() =>
      parseWorkerConfig({
        ...minimal,
        EXPORT_STORAGE: 's3',
        S3_BUCKET: 'b',
        S3_ACCESS_KEY_ID: 'k',
      }),
    ).toThrow(/S3_SECRET_ACCESS_KEY: required with S3_ACCESS_KEY_ID/);
    expect(() => parseWorkerConfig({ ...minimal, EXPORT_STORAGE: 'ftp' })).toThrow(
      /EXPORT_STORAGE/,
    );
    expect(() =>
      parseWorkerConfig({ ...minimal, EXPORT_STORAGE: 's3', S3_BUCKET: 'b', S3_SSE: 'rot13' }),
    ).toThrow(/S3_SSE/);
    expect(() =>
      parseWorkerConfig({ ...minimal, EXPORT_STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio' }),
    ).toThrow(/S3_ENDPOINT/);
  });

  it('reads the S3 settings, an empty endpoint meaning AWS', () => {
    const aws = parseWorkerConfig({
      ...minimal,
      EXPORT_STORAGE: 's3',
      S3_BUCKET: 'exports',
      S3_ENDPOINT: '',
    });
    expect(aws).toMatchObject({ S3_REGION: 'us-east-1', S3_BUCKET: 'exports' });
    expect(aws.S3_ENDPOINT).toBeUndefined();
    expect(aws.S3_FORCE_PATH_STYLE).toBeUndefined();
    const storage = exportStorageFromConfig(aws);
    expect(storage.name).toBe('s3');
    expect(storage.describe('team/session/file.json')).toBe('s3://exports/team/session/file.json');

    const minio = parseWorkerConfig({
      ...minimal,
      EXPORT_STORAGE: 's3',
      S3_ENDPOINT: 'http://minio.internal:9000',
      S3_REGION: 'eu-west-1',
      S3_BUCKET: 'exports',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'false',
      S3_PREFIX: '/locus/exports/',
      S3_SSE: 'AES256',
    });
    expect(minio).toMatchObject({
      S3_ENDPOINT: 'http://minio.internal:9000',
      S3_REGION: 'eu-west-1',
      S3_FORCE_PATH_STYLE: false,
      S3_SSE: 'AES256',
    });
    expect(exportStorageFromConfig(minio).describe('t/s/f.json')).toBe(
      's3://exports/locus/exports/t/s/f.json',
    );
  });
});

describe('evidence signing key configuration', () => {
  it('is required in production, where the worker does not create one', () => {
    const production = {
      ...minimal,
      NODE_ENV: 'production',
      EVIDENCE_SIGNING_KEY_FILE: '/nonexistent/locus-evidence.pem',
    };
    expect(() => parseWorkerConfig(production)).toThrow(
      /EVIDENCE_SIGNING_KEY: required in production/,
    );
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(
      parseWorkerConfig({ ...production, EVIDENCE_SIGNING_KEY: pem }).EVIDENCE_SIGNING_KEY,
    ).toBe(pem);
    // Outside production a missing file is created at the first start.
    expect(() =>
      parseWorkerConfig({ ...minimal, EVIDENCE_SIGNING_KEY_FILE: '/nonexistent/key.pem' }),
    ).not.toThrow();
  });
});
