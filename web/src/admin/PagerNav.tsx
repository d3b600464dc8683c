import { Button, Group, Text } from '@mantine/core';

/**
 * Previous / next paging under an admin table, with "Page 2 of 5 · 112 rows" said politely when it
 * changes. Shown only when there is more than one page.
 */
export function PagerNav({
  label,
  page,
  pageSize,
  total,
  noun,
  onPage,
}: {
  /** The navigation landmark's name, e.g. "Pages of the audit trail". */
  label: string;
  page: number;
  pageSize: number;
  total: number;
  /** What the total counts: "rows", "teams", "waiting". */
  noun: string;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize) return null;
  return (
    <Group justify="space-between" component="nav" aria-label={label}>
      <Button
        variant="default"
        size="xs"
        disabled={page <= 1}
        onClick={() => onPage(Math.max(1, page - 1))}
      >
        Previous page
      </Button>
      <Text size="sm" aria-live="polite">
        Page {page} of {pages} · {total} {noun}
      </Text>
      <Button
        variant="default"
        size="xs"
        disabled={page >= pages}
        onClick={() => onPage(Math.min(pages, page + 1))}
      >
        Next page
      </Button>
    </Group>
  );
}
