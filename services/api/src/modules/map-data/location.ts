import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/** Where the browser reads a PMTiles archive that lives on this server (see routes.ts). */
export const PMTILES_PATH = '/map-data/basemap.pmtiles';

export type PmtilesLocation = { kind: 'url'; url: string } | { kind: 'file'; file: string };

/**
 * MAP_PMTILES_URL is either an http(s) URL, which the browser reads itself (a CDN, a bucket, a
 * tile host on the closed network), or a path on this machine, which Locus serves: on a closed
 * network the API host is often the only server the dispatchers' browsers can reach.
 */
export function pmtilesLocation(value: string | undefined): PmtilesLocation | null {
  if (!value) return null;
  if (/^https?:\/\//i.test(value)) return { kind: 'url', url: value };
  return { kind: 'file', file: resolve(value) };
}

/** The archive's address as the web app should fetch it, or null without one. */
export function pmtilesBrowserUrl(value: string | undefined): string | null {
  const location = pmtilesLocation(value);
  if (!location) return null;
  return location.kind === 'url' ? location.url : PMTILES_PATH;
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
