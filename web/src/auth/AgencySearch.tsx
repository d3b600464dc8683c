import type { Psap } from '@locus/contract';
import { CloseButton, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, expect } from '../app/api';

/** SPEC.md §3: the agency picker's pseudo-entry, whose id is false. */
export const unlistedAgency = { id: false, name: "My agency isn't listed" } as const;

/** A listed agency, the unlisted pseudo-entry, or nothing chosen yet. */
export type AgencyChoice = Psap | false | null;

const unlistedValue = 'unlisted';

function choiceText(choice: AgencyChoice): string {
  if (choice === null) return '';
  return choice === false ? unlistedAgency.name : `${choice.name} (${choice.state})`;
}

/**
 * The agency search of Create Account (SPEC.md §4): it searches only while nothing is selected
 * and the text is non-empty, and changing the text (clearing it included) drops the selection.
 * A failed search is kept in the query's state, not displayed (SPEC.md §8): the unlisted entry
 * stays available either way.
 */
export function AgencySearch({
  value,
  onChange,
  onBlur,
  error,
}: {
  value: AgencyChoice;
  onChange: (choice: AgencyChoice) => void;
  onBlur?: () => void;
  error?: string;
}) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [text, setText] = useState(() => choiceText(value));
  const [term] = useDebouncedValue(text.trim(), 250);
  // The debounced term lags the text: never search for text that is no longer there.
  const searching = value === null && term !== '' && term === text.trim();
  const results = useQuery({
    queryKey: ['psap-search', term],
    queryFn: async () => expect(await api.psap.search({ body: { searchTerm: term } }), 200),
    enabled: searching,
    staleTime: 5 * 60_000,
  });
  const agencies = searching ? (results.data ?? []) : [];

  const choose = (optionValue: string) => {
    const choice =
      optionValue === unlistedValue
        ? false
        : (agencies.find((agency) => String(agency.id) === optionValue) ?? null);
    onChange(choice);
    setText(choiceText(choice));
    combobox.closeDropdown();
  };

  const changeText = (next: string) => {
    setText(next);
    if (value !== null) onChange(null);
    if (next.trim() === '') combobox.closeDropdown();
    else combobox.openDropdown();
  };

  return (
    <Combobox store={combobox} onOptionSubmit={choose}>
      <Combobox.Target>
        <TextInput
          label="Agency"
          placeholder="Search by agency name"
          withAsterisk
          autoComplete="off"
          value={text}
          error={error}
          onChange={(event) => changeText(event.currentTarget.value)}
          onFocus={() => {
            if (value === null && text.trim() !== '') combobox.openDropdown();
          }}
          onBlur={() => {
            combobox.closeDropdown();
            onBlur?.();
          }}
          rightSection={
            results.isFetching ? (
              <Loader size={16} />
            ) : text !== '' ? (
              <CloseButton size="sm" aria-label="Clear agency" onClick={() => changeText('')} />
            ) : null
          }
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={value !== null || text.trim() === ''}>
        <Combobox.Options mah={260} style={{ overflowY: 'auto' }} aria-label="Agencies">
          {agencies.map((agency) => (
            <Combobox.Option key={agency.id} value={String(agency.id)}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm">{agency.name}</Text>
                <Text size="xs" c="gray.7">
                  {agency.state}
                </Text>
              </Group>
            </Combobox.Option>
          ))}
          {searching && results.isSuccess && agencies.length === 0 && (
            <Combobox.Empty>No agency matches “{term}”</Combobox.Empty>
          )}
          <Combobox.Option value={unlistedValue}>
            <Text size="sm" fw={500}>
              {unlistedAgency.name}
            </Text>
          </Combobox.Option>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
