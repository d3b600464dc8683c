import {
  customContentLimits,
  TeamCustomContent,
  type HeaderLink,
  type ManagedTeam,
} from '@locus/contract';
import {
  Alert,
  Button,
  Card,
  Fieldset,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, ApiError, expect } from '../../app/api';
import { useSession } from '../../app/session';
import { failureMessage } from './queries';
import { teamKeys, useCustomContent, useTeamChanged } from './team-queries';

type ListName = 'header' | 'headerDropdown';
type Links = Record<ListName, HeaderLink[]>;
/** Messages by field path, as the API names them (`customContent.links.header.0.link`). */
type Errors = Record<string, string>;

const listTitles: Record<ListName, { title: string; item: string; help: string }> = {
  header: {
    title: 'Header links',
    item: 'Header link',
    help: 'Shown in your dispatchers’ user menu (and beside it on wide screens).',
  },
  headerDropdown: {
    title: 'Dropdown links',
    item: 'Dropdown link',
    help: 'Shown in your dispatchers’ user menu.',
  },
};

const pathOf = (list: ListName, index?: number, field?: keyof HeaderLink) =>
  ['customContent.links', list, index, field].filter((part) => part !== undefined).join('.');

/** Checks the links as the API will, so that each message shows beside its field. */
function validate(links: Links): Errors {
  const parsed = TeamCustomContent.safeParse({ links });
  if (parsed.success) return {};
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const path = ['customContent', ...issue.path].join('.');
    errors[path] ??= issue.message;
  }
  return errors;
}

function LinkList({
  list,
  links,
  errors,
  onChange,
}: {
  list: ListName;
  links: HeaderLink[];
  errors: Errors;
  onChange: (links: HeaderLink[]) => void;
}) {
  const headingId = useId();
  const { title, item, help } = listTitles[list];
  const full = links.length >= customContentLimits.linksPerList;
  const update = (index: number, change: Partial<HeaderLink>) =>
    onChange(links.map((link, at) => (at === index ? { ...link, ...change } : link)));
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {help}
      </Text>
      {links.length === 0 && <Text size="sm">No {title.toLowerCase()}.</Text>}
      {links.map((link, index) => (
        <Fieldset key={index} legend={`${item} ${index + 1}`} variant="filled" p="sm">
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput
              label="Name"
              value={link.name}
              onChange={(event) => update(index, { name: event.currentTarget.value })}
              error={errors[pathOf(list, index, 'name')]}
              style={{ flex: '1 1 160px' }}
              maxLength={customContentLimits.nameMaxLength + 20}
            />
            <TextInput
              label="Link"
              placeholder="https://"
              type="url"
              value={link.link}
              onChange={(event) => update(index, { link: event.currentTarget.value })}
              error={errors[pathOf(list, index, 'link')]}
              style={{ flex: '2 1 220px' }}
            />
            <Button
              variant="subtle"
              color="red"
              mt={{ base: 0, xs: 25 }}
              onClick={() => onChange(links.filter((_, at) => at !== index))}
              aria-label={`Remove ${item.toLowerCase()} ${index + 1}`}
            >
              Remove
            </Button>
          </Group>
        </Fieldset>
      ))}
      {errors[pathOf(list)] && (
        <Text size="sm" c="red" role="alert">
          {errors[pathOf(list)]}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={full}
          onClick={() => onChange([...links, { name: '', link: 'https://' }])}
        >
          Add {item.toLowerCase()}
        </Button>
        {full && (
          <Text size="sm" c="dimmed">
            At most {customContentLimits.linksPerList} links.
          </Text>
        )}
      </Group>
    </Stack>
  );
}

function LinksForm({ team, initial }: { team: ManagedTeam; initial: Links }) {
  const [links, setLinks] = useState<Links>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const queryClient = useQueryClient();
  const { teams } = useSession();
  const changed = useTeamChanged();
  const save = useMutation({
    mutationFn: async (content: TeamCustomContent) =>
      expect(
        await api.teams.editCustomContent({
          params: { id: team.id },
          body: { customContent: content },
        }),
        200,
      ),
    onSuccess: async (saved) => {
      queryClient.setQueryData(teamKeys.customContent(team.id), saved);
      notifications.show({
        color: 'green',
        message: 'Custom links saved',
        closeButtonProps: { 'aria-label': 'Close notice' },
      });
      // The admin's own menu shows them at once; the team's dispatchers after a reload.
      await changed(team, teams);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.body?.issues) {
        setErrors(
          Object.fromEntries(error.body.issues.map((issue) => [issue.path, issue.message])),
        );
      }
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed: Links = {
      header: links.header.map((link) => ({ name: link.name.trim(), link: link.link.trim() })),
      headerDropdown: links.headerDropdown.map((link) => ({
        name: link.name.trim(),
        link: link.link.trim(),
      })),
    };
    const found = validate(trimmed);
    setErrors(found);
    if (Object.keys(found).length > 0 || save.isPending) return;
    save.mutate({ links: trimmed });
  }

  return (
    <form noValidate onSubmit={submit}>
      <Stack>
        {(['header', 'headerDropdown'] as const).map((list) => (
          <LinkList
            key={list}
            list={list}
            links={links[list]}
            errors={errors}
            onChange={(next) => setLinks((current) => ({ ...current, [list]: next }))}
          />
        ))}
        {Object.keys(errors).length > 0 && (
          <Alert color="red" role="alert">
            Some links need fixing; the message is beside each one.
          </Alert>
        )}
        {save.isError && !(save.error instanceof ApiError && save.error.body?.issues) && (
          <Alert color="red" role="alert">
            The links could not be saved: {failureMessage(save.error)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save links
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The team's custom links (SPEC.md §3 Team `customContent`): two lists, each of a name and an
 * https link, shown in the user menu of the team's dispatchers and opened in a new tab.
 */
export function TeamLinksPanel({ team }: { team: ManagedTeam }) {
  const headingId = useId();
  const content = useCustomContent(team.id);
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          Custom links
        </Title>
        {content.isPending && <Loader size="sm" aria-label="Loading custom links" />}
        {content.isError && (
          <Alert color="red" role="alert">
            The custom links could not be loaded: {failureMessage(content.error)}
          </Alert>
        )}
        {content.data && <LinksForm team={team} initial={content.data.customContent.links} />}
      </Stack>
    </Card>
  );
}
