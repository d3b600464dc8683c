import { broadcastLimits, type Broadcast, type BroadcastLevel } from '@locus/contract';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, ApiError, expect } from '../../app/api';
import { currentBroadcastsKey, fetchCurrentBroadcasts } from '../../app/broadcasts/broadcasts-data';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The field an API validation failure names, with its message. */
function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.code !== 'validation-failed') return {};
  return Object.fromEntries((error.body?.issues ?? []).map((issue) => [issue.path, issue.message]));
}

/** `datetime-local` gives the browser's local time without a zone: the API wants ISO 8601. */
function endsAtIso(local: string): string | null {
  if (!local) return null;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/**
 * The maintenance broadcasts of `/admin/dev` (platform owner's company only): post a banner that
 * every open console shows within seconds (info or warning, up to 280 characters, an optional
 * end time), and withdraw the ones showing.
 */
export function BroadcastsPanel() {
  const queryClient = useQueryClient();
  const titleId = useId();
  const [level, setLevel] = useState<BroadcastLevel>('info');
  const [text, setText] = useState('');
  const [endsAt, setEndsAt] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);

  const current = useQuery({ queryKey: currentBroadcastsKey, queryFn: fetchCurrentBroadcasts });

  const post = useMutation({
    mutationFn: async () =>
      expect(
        await api.broadcasts.post({
          body: { level, text, endsAt: endsAtIso(endsAt) },
        }),
        201,
      ),
    onSuccess: (posted) => {
      setText('');
      setEndsAt('');
      // The socket's frame will say the same; this keeps the list right if it is slow.
      queryClient.setQueryData<Broadcast[]>(currentBroadcastsKey, (list) => [
        posted,
        ...(list ?? []).filter((item) => item.id !== posted.id),
      ]);
    },
  });

  const withdraw = useMutation({
    mutationFn: async (id: string) => {
      const answer = await api.broadcasts.withdraw({ params: { id } });
      // Already gone (withdrawn elsewhere, or ended): the list is what matters.
      if (answer.status !== 404) expect(answer, 204);
      return id;
    },
    onSuccess: (id) =>
      queryClient.setQueryData<Broadcast[]>(currentBroadcastsKey, (list) =>
        (list ?? []).filter((item) => item.id !== id),
      ),
  });

  const trimmedLength = text.trim().length;
  const tooLong = trimmedLength > broadcastLimits.textMaxLength;
  const errors = fieldErrors(post.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmedLength === 0) return setLocalError('Write the message to broadcast.');
    if (tooLong)
      return setLocalError(`At most ${broadcastLimits.textMaxLength} characters, please.`);
    setLocalError(null);
    post.mutate();
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId} data-testid="broadcasts-panel">
      <Title order={2} id={titleId} size="h4">
        Maintenance broadcast
      </Title>
      <Text size="sm" c="dimmed">
        Shown at the top of every open console (dashboard, Overwatch, admin, training) within
        seconds, and to every console opened later, until it ends or you withdraw it.
      </Text>
      <form onSubmit={submit} noValidate aria-label="Post a broadcast">
        <Stack gap="sm">
          <Radio.Group
            label="Level"
            value={level}
            onChange={(value) => setLevel(value as BroadcastLevel)}
          >
            <Group gap="md" mt={4}>
              <Radio value="info" label="Information" />
              <Radio value="warning" label="Warning" />
            </Group>
          </Radio.Group>
          <Textarea
            label="Message"
            description={`${trimmedLength} / ${broadcastLimits.textMaxLength} characters`}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            autosize
            minRows={2}
            maxRows={6}
            required
            error={localError ?? errors.text}
            placeholder="The SMS provider is degraded: confirm locations by voice."
          />
          <TextInput
            type="datetime-local"
            label="Ends at (optional)"
            description="Your local time. Leave empty to show it until you withdraw it."
            value={endsAt}
            onChange={(event) => setEndsAt(event.currentTarget.value)}
            error={errors.endsAt}
          />
          {post.isError && !errors.text && !errors.endsAt && (
            <Alert color="red" role="alert">
              The broadcast was not posted: {post.error.message}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={post.isPending}>
              Post broadcast
            </Button>
          </Group>
        </Stack>
      </form>

      <Title order={3} size="h5">
        Showing now
      </Title>
      {current.isPending && <Loader size="sm" aria-label="Loading the current broadcasts" />}
      {current.isError && (
        <Alert color="red" role="alert">
          The current broadcasts could not be loaded: {current.error.message}
        </Alert>
      )}
      {current.data?.length === 0 && <Text c="dimmed">No broadcast is showing.</Text>}
      {withdraw.isError && (
        <Alert color="red" role="alert">
          The broadcast was not withdrawn: {withdraw.error.message}
        </Alert>
      )}
      {current.data && current.data.length > 0 && (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {current.data.map((broadcast) => (
            <Group
              key={broadcast.id}
              component="li"
              justify="space-between"
              wrap="wrap"
              gap="xs"
              p="xs"
              style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 6 }}
            >
              <Stack gap={2} style={{ minWidth: 0, flex: '1 1 12rem' }}>
                <Group gap="xs">
                  <Badge color={broadcast.level === 'warning' ? '#8a3a00' : 'blue.9'}>
                    {broadcast.level === 'warning' ? 'Warning' : 'Information'}
                  </Badge>
                  <Text size="sm" c="dimmed">
                    {broadcast.postedBy ?? 'A removed account'},{' '}
                    {dateTime.format(new Date(broadcast.startsAt))}
                    {broadcast.endsAt
                      ? `, until ${dateTime.format(new Date(broadcast.endsAt))}`
                      : ', until withdrawn'}
                  </Text>
                </Group>
                <Text style={{ overflowWrap: 'anywhere' }}>{broadcast.text}</Text>
              </Stack>
              <Button
                variant="outline"
                color="red.8"
                size="xs"
                loading={withdraw.isPending && withdraw.variables === broadcast.id}
                onClick={() => withdraw.mutate(broadcast.id)}
                aria-label={`Withdraw the broadcast “${broadcast.text.slice(0, 60)}”`}
              >
                Withdraw
              </Button>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
