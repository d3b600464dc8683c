import { authContract } from '@locus/contract';
import { initClient } from '@ts-rest/core';

/**
 * Book a Demo needs no session, so it has its own client without the bearer token; everything
 * stays on the page's origin. (The public settings are a plain fetch: see public-config.ts.)
 */
export const demoRequestClient = initClient(
  { demoRequest: authContract.demoRequest },
  { baseUrl: '', baseHeaders: {}, validateResponse: false },
);
