import type * as ContractModule from '@locus/contract';
import { loadChunk } from './chunk-timeout';

type Contract = typeof ContractModule;

let loaded: Contract | null = null;
let loading: Promise<Contract> | null = null;

/**
 * The API contract at run time: its zod schemas and libphonenumber weigh more than the whole
 * landing page, so the public site never imports it. Signed-in pages and every form import it
 * with their own chunks; the shell (session, route guard) loads it through here, and only once
 * someone is signed in.
 */
export function loadContract(): Promise<Contract> {
  if (!loading) {
    loading = loadChunk(() => import('@locus/contract')).then((module) => (loaded = module));
    // A failed download is tried again by the next caller.
    loading.catch(() => (loading = null));
  }
  return loading;
}

/** The contract if it has been loaded, or null. */
export function loadedContract(): Contract | null {
  return loaded;
}
