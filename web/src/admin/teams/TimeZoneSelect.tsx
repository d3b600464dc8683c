import { timeZoneNames } from '@locus/contract';
import { Select } from '@mantine/core';
import { useMemo } from 'react';

/** IANA names as people read them: `America/New York`. */
const labelOf = (zone: string) => zone.replaceAll('_', ' ');

/** The team's time zone (issue 13): its metrics cut days and months in it. */
export function TimeZoneSelect({
  value,
  onChange,
}: {
  value: string;
  onChange: (zone: string) => void;
}) {
  const data = useMemo(() => {
    const zones = timeZoneNames();
    // A zone saved under a name this browser does not list (another runtime's) is still shown.
    if (!zones.includes(value)) zones.unshift(value);
    return zones.map((zone) => ({ value: zone, label: labelOf(zone) }));
  }, [value]);
  return (
    <Select
      label="Time zone"
      description="Metrics count days and months in this zone. Type a city to find it."
      searchable
      allowDeselect={false}
      data={data}
      value={value}
      onChange={(zone) => {
        if (zone !== null) onChange(zone);
      }}
      nothingFoundMessage="No time zone matches"
      // At most 8 options, all in view: a dropdown that scrolls is a region the keyboard cannot
      // reach (axe scrollable-region-focusable); typing finds the others.
      limit={8}
      maxDropdownHeight={400}
      maw={420}
    />
  );
}
