import type { ExportState } from '@locus/contract';

/** How the sessions pages name an export's state. */
export const exportStateLabels: Record<ExportState, { label: string; color: string }> = {
  none: { label: 'Not exported', color: 'gray.8' },
  queued: { label: 'Export queued', color: 'navy.8' },
  writing: { label: 'Exporting', color: 'navy.8' },
  // Red as failed: white on orange or yellow falls under 4.5:1; the words tell them apart.
  retrying: { label: 'Export retrying', color: 'red.9' },
  stored: { label: 'Exported', color: 'teal.9' },
  failed: { label: 'Export failed', color: 'red.9' },
};

export const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
