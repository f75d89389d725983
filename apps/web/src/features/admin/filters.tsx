// The bar above an admin list: a search box (asked of the server once typing pauses) and choices that
// narrow the list. Changing any of them goes back to the first page.
import { useEffect, useState } from 'react';
import { Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';

interface Choice {
  name: string;
  label: string;
  /** '' is "any". */
  options: { value: string; label: string }[];
}

export function Filters({ search, onSearch, choices, values, onChoose, searchLabel }: {
  search: string;
  onSearch: (text: string) => void;
  searchLabel: string;
  choices: Choice[];
  values: Record<string, string>;
  onChoose: (name: string, value: string) => void;
}) {
  const [text, setText] = useState(search);
  const [settled] = useDebouncedValue(text.trim(), 300);
  useEffect(() => {
    if (settled !== search) onSearch(settled);
    // Only a settled change of the text is news.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);

  return (
    <Group gap="sm" mb="md" wrap="wrap" align="flex-end">
      <TextInput
        label={searchLabel}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden="true" />}
        maxLength={100}
        style={{ flex: '1 1 16rem' }}
        data-testid="admin-search"
        type="search"
      />
      {choices.map((choice) => (
        <Select
          key={choice.name}
          label={choice.label}
          data={choice.options}
          value={values[choice.name] ?? ''}
          onChange={(value) => onChoose(choice.name, value ?? '')}
          allowDeselect={false}
          style={{ flex: '0 1 12rem' }}
          data-testid={`admin-filter-${choice.name}`}
        />
      ))}
    </Group>
  );
}

/** A list page's filters and page number, kept together so a filter change returns to page 1. */
export function useListState<F extends Record<string, string>>(initial: F) {
  const [filters, setFilters] = useState(initial);
  const [page, setPage] = useState(1);
  return {
    filters,
    page,
    setPage,
    set(name: string, value: string) {
      setFilters((current) => ({ ...current, [name]: value }));
      setPage(1);
    },
  };
}
