import { authContract, publicConfigContract } from '@locus/contract';
import { initClient } from '@ts-rest/core';

/**
 * The public site only calls endpoints that need no session, so it has its own client without
 * the bearer token; everything stays on the page's origin.
 */
const options = { baseUrl: '', baseHeaders: {}, validateResponse: true } as const;

export const publicConfigClient = initClient(publicConfigContract, options);
export const demoRequestClient = initClient(
  { demoRequest: authContract.demoRequest },
  { ...options, validateResponse: false },
);
