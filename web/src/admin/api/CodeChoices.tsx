import { Checkbox, Stack } from '@mantine/core';

/** A required set of checkboxes for codes (a key's scopes, a webhook's events), each explained. */
export function CodeChoices<T extends string>({
  label,
  description,
  codes,
  explain,
  value,
  onChange,
  error,
}: {
  label: string;
  description: string;
  codes: readonly T[];
  explain: Record<T, string>;
  value: T[];
  onChange: (value: T[]) => void;
  error: string | null;
}) {
  return (
    <Checkbox.Group
      label={label}
      description={description}
      value={value}
      onChange={(chosen) => onChange(chosen as T[])}
      error={error}
      required
    >
      <Stack gap="xs" mt="xs">
        {codes.map((code) => (
          <Checkbox
            key={code}
            value={code}
            label={<code>{code}</code>}
            description={explain[code]}
          />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}
