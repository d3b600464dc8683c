import { TeamLevel, teamLevelLabels } from '@locus/contract';
import { Radio, Stack } from '@mantine/core';

const descriptions: Record<TeamLevel, string> = {
  basic: 'Locating, call lists and the admin area.',
  premiere: 'Adds Overwatch, the live view of many numbers.',
  enterprise: 'Adds metrics and partner API access (includes premiere).',
};

/** The team's permission level: basic, premiere or enterprise (SPEC.md §6). */
export function LevelChoice({
  value,
  onChange,
  disabled,
}: {
  value: TeamLevel;
  onChange: (level: TeamLevel) => void;
  disabled?: boolean;
}) {
  return (
    <Radio.Group
      label="Permission level"
      value={value}
      onChange={(next) => {
        const parsed = TeamLevel.safeParse(next);
        if (parsed.success) onChange(parsed.data);
      }}
    >
      <Stack gap="xs" mt={6}>
        {TeamLevel.options.map((level) => (
          <Radio
            key={level}
            value={level}
            label={teamLevelLabels[level]}
            description={descriptions[level]}
            disabled={disabled}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
