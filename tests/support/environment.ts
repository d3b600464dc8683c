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
};
