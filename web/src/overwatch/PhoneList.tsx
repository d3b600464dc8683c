import { phoneStatusLabels } from '@locus/contract';
import {
  Badge,
  Group,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { formatAge, matchesFilter, sortPhones, type PhoneSort, type PhoneView } from './phone-view';
import { statusBadgeColours } from './status-style';

/** The side list: every phone, sorted by what needs a look first, filtered by name or number. */
export function PhoneList({
  views,
  selected,
  onSelect,
}: {
  views: PhoneView[];
  selected: string | null;
  onSelect: (callerId: string) => void;
}) {
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<PhoneSort>('status');
  const shown = sortPhones(
    views.filter((view) => matchesFilter(view, filter)),
    sort,
  );
  return (
    <Stack gap="xs">
      <TextInput
        label="Find a phone"
        placeholder="Name or number"
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
      />
      <SegmentedControl
        aria-label="Sort phones by"
        size="xs"
        value={sort}
        onChange={(value) => setSort(value as PhoneSort)}
        data={[
          { value: 'status', label: 'Status' },
          { value: 'age', label: 'Last fix' },
          { value: 'name', label: 'Name' },
        ]}
      />
      <Text size="xs" c="dimmed" aria-live="polite">
        {shown.length} of {views.length} phones
      </Text>
      <ul className="locus-overwatch-list" aria-label="Phones in this watch">
        {shown.map((view) => (
          <li key={view.callerId}>
            <UnstyledButton
              className="locus-overwatch-row"
              data-selected={view.callerId === selected || undefined}
              aria-current={view.callerId === selected ? 'true' : undefined}
              onClick={() => onSelect(view.callerId)}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate>
                    {view.label ?? view.number}
                  </Text>
                  {view.label && (
                    <Text size="xs" c="dimmed">
                      {view.number}
                    </Text>
                  )}
                  <Text size="xs" c="dimmed">
                    {formatAge(view.ageMs)}
                  </Text>
                </div>
                <Stack gap={2} align="flex-end">
                  <Badge color={statusBadgeColours[view.status]} variant="filled" size="sm">
                    {phoneStatusLabels[view.status]}
                  </Badge>
                  {view.jumpFlagged && (
                    <Badge color="#a61e4d" variant="outline" size="xs">
                      Impossible jump
                    </Badge>
                  )}
                </Stack>
              </Group>
            </UnstyledButton>
          </li>
        ))}
      </ul>
    </Stack>
  );
}
