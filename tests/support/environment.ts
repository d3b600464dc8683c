/** What `npm test` passes to the tests; running vitest directly without it is a clear error. */
function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: run the tests with \`npm test\` (add \`-- <filter>\` for a subset).`,
    );
  return value;
}

export const testEnvironment = {
  postgresAdminUrl: () => required('LOCUS_TEST_POSTGRES_ADMIN_URL'),
  templateDatabase: () => required('LOCUS_TEST_TEMPLATE_DATABASE'),
  redisUrl: () => required('LOCUS_TEST_REDIS_URL'),
  chromium: () => required('LOCUS_TEST_CHROMIUM'),
  webDist: () => required('LOCUS_TEST_WEB_DIST'),
  /** The private S3-compatible server (s3rver) that `npm test` starts, and its bucket. */
  s3: () => ({
    endpoint: required('LOCUS_TEST_S3_ENDPOINT'),
    region: required('LOCUS_TEST_S3_REGION'),
    bucket: required('LOCUS_TEST_S3_BUCKET'),
    accessKeyId: required('LOCUS_TEST_S3_ACCESS_KEY_ID'),
    secretAccessKey: required('LOCUS_TEST_S3_SECRET_ACCESS_KEY'),
  }),
};
