import {
  movementPresets,
  overwatchLimits,
  type Movement,
  type OverwatchGroup,
} from '@locus/contract';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Container,
  Group,
  List,
  Loader,
  NumberInput,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../app/api';
import { useSession } from '../../app/session';
import { LanguageRadios } from '../../dashboard/modals/LanguageRadios';
import { failureMessage } from '../teams/queries';
import { manageableTeams } from '../teams/manageable-teams';
import { ArchiveGroupModal } from './ArchiveGroupModal';
import {
  describeIssuePath,
  draftOf,
  emptyDraft,
  inputOf,
  kmhHint,
  movementOf,
  validateDraft,
  type FieldErrors,
  type GroupDraft,
} from './form-model';
import { GeofencesSection } from './GeofencesSection';
import { NumbersSection } from './NumbersSection';
import { closableNotice, useArchiveGroup, useOverwatchGroup, useSaveGroup } from './queries';

const movementLabels: Record<Movement, string> = {
  walking: 'Walking',
  boat: 'Boat',
  vehicle: 'Vehicle',
  custom: 'Custom',
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The premiere-level teams the admin may create a group on. */
function usePremiereTeams() {
  const { user, teams } = useSession();
  return manageableTeams(user, teams).filter(
    (team) => team.isActive && team.permissionLevels.includes('premiere'),
  );
}

function MovementSection({
  draft,
  update,
  errors,
}: {
  draft: GroupDraft;
  update: (change: Partial<GroupDraft>) => void;
  errors: FieldErrors;
}) {
  const headingId = useId();
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        Movement and signal loss
      </Title>
      <Text size="sm" c="dimmed">
        How the phones move: Overwatch grows an old fix’s circle by the assumed speed (where the
        phone may be by now) and flags a jump faster than the impossible-jump speed. A fix older
        than “stale after” is shown as stale.
      </Text>
      <Radio.Group
        label="Movement"
        value={draft.movement}
        onChange={(value) => {
          const movement = value as Movement;
          update(movement === 'custom' ? { movement } : { movement, ...movementPresets[movement] });
        }}
      >
        <Group gap="md" mt={6}>
          {(Object.keys(movementLabels) as Movement[]).map((movement) => (
            <Radio key={movement} value={movement} label={movementLabels[movement]} />
          ))}
        </Group>
      </Radio.Group>
      <Group align="flex-start" gap="md" grow>
        <NumberInput
          label="Assumed speed (m/s)"
          description={kmhHint(draft.speedMps)}
          min={overwatchLimits.speed.min}
          max={overwatchLimits.speed.max}
          step={0.5}
          decimalScale={1}
          value={draft.speedMps}
          onChange={(speedMps) =>
            update({ speedMps, movement: movementOf(speedMps, draft.maxSpeedMps) })
          }
          error={errors.speedMps}
          miw={180}
        />
        <NumberInput
          label="Impossible-jump speed (m/s)"
          description={kmhHint(draft.maxSpeedMps)}
          min={overwatchLimits.speed.min}
          max={overwatchLimits.speed.max}
          step={1}
          decimalScale={1}
          value={draft.maxSpeedMps}
          onChange={(maxSpeedMps) =>
            update({ maxSpeedMps, movement: movementOf(draft.speedMps, maxSpeedMps) })
          }
          error={errors.maxSpeedMps}
          miw={180}
        />
        <NumberInput
          label="Stale after (seconds)"
          description={`${overwatchLimits.staleAfterSeconds.min} to ${overwatchLimits.staleAfterSeconds.max}`}
          min={overwatchLimits.staleAfterSeconds.min}
          max={overwatchLimits.staleAfterSeconds.max}
          step={10}
          allowDecimal={false}
          value={draft.staleAfterSeconds}
          onChange={(staleAfterSeconds) => update({ staleAfterSeconds })}
          error={errors.staleAfterSeconds}
          miw={180}
        />
      </Group>
    </Stack>
  );
}

/** A server's 400: its message, and each field it names, worded with the form's labels. */
function serverProblem(error: unknown): { message: string; issues: string[]; fields: FieldErrors } {
  if (!(error instanceof ApiError))
    return { message: failureMessage(error), issues: [], fields: {} };
  const issues = error.body?.issues ?? [];
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.split('.')[0] as keyof GroupDraft;
    fields[field] ??= issue.message;
  }
  return {
    message: failureMessage(error),
    issues: issues.map((issue) => `${describeIssuePath(issue.path)}: ${issue.message}`),
    fields,
  };
}

function GroupForm({ group, initial }: { group: OverwatchGroup | null; initial: GroupDraft }) {
  const navigate = useNavigate();
  const premiereTeams = usePremiereTeams();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [archiving, setArchiving] = useState(false);
  const problemRef = useRef<HTMLDivElement>(null);
  const save = useSaveGroup(group?.id ?? null);
  const restore = useArchiveGroup();
  const creating = group === null;
  const teamId = group?.teamId ?? draft.teamId ?? premiereTeams[0]?.id;
  const update = (change: Partial<GroupDraft>) =>
    setDraft((current) => ({ ...current, ...change }));
  const server = save.isError ? serverProblem(save.error) : null;
  const shown: FieldErrors = { ...server?.fields, ...errors };
  const invalid = Object.keys(errors).length > 0;

  // A refusal is said at the top of the form, where the focus goes.
  useEffect(() => {
    if (save.isError || invalid) problemRef.current?.focus();
  }, [save.isError, save.failureCount, invalid]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateDraft(draft, creating);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(inputOf({ ...draft, teamId }, creating), {
      onSuccess: (saved) => {
        notifications.show({ ...closableNotice, color: 'teal', message: `${saved.name} saved` });
        void navigate('/admin/overwatch');
      },
    });
  }

  return (
    <form noValidate onSubmit={submit} aria-label={creating ? 'New group' : `Group ${group.name}`}>
      <Stack gap="lg">
        {(server || invalid) && (
          <Alert
            ref={problemRef}
            tabIndex={-1}
            color="red"
            role="alert"
            title="The group was not saved"
          >
            {server ? (
              <Stack gap={4}>
                <Text size="sm">{server.message}</Text>
                {server.issues.length > 0 && (
                  <List size="sm">
                    {server.issues.map((issue) => (
                      <List.Item key={issue}>{issue}</List.Item>
                    ))}
                  </List>
                )}
              </Stack>
            ) : (
              <List size="sm">
                {Object.entries(errors).map(([field, message]) => (
                  <List.Item key={field}>
                    {describeIssuePath(field)}: {message}
                  </List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        {group?.archivedAt && (
          <Alert color="gray" title="This group is archived">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">It cannot be opened in Overwatch until it is restored.</Text>
              <Button
                size="xs"
                variant="default"
                loading={restore.isPending}
                onClick={() =>
                  restore.mutate(
                    { id: group.id, archive: false },
                    {
                      onSuccess: () =>
                        notifications.show({
                          ...closableNotice,
                          color: 'teal',
                          message: `${group.name} restored`,
                        }),
                    },
                  )
                }
              >
                Restore
              </Button>
            </Stack>
          </Alert>
        )}
        <Card withBorder radius="md" padding="lg">
          <Stack gap="md">
            {creating && premiereTeams.length > 1 && (
              <Select
                label="Team"
                data={premiereTeams.map((team) => ({ value: team.id, label: team.teamName }))}
                value={teamId ?? null}
                onChange={(value) => value && update({ teamId: value })}
                allowDeselect={false}
                maw={420}
              />
            )}
            {!creating && (
              <Text size="sm">
                Team: <strong>{group.teamName}</strong>
              </Text>
            )}
            <TextInput
              label="Name"
              required
              maxLength={overwatchLimits.nameMaxLength}
              value={draft.name}
              onChange={(event) => update({ name: event.currentTarget.value })}
              error={shown.name}
              maw={520}
            />
            <LanguageRadios value={draft.language} onChange={(language) => update({ language })} />
          </Stack>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <NumbersSection
            teamId={teamId}
            members={draft.members}
            onChange={(members) => update({ members })}
            error={shown.members}
          />
        </Card>
        <Card withBorder radius="md" padding="lg">
          <MovementSection draft={draft} update={update} errors={shown} />
        </Card>
        <Card withBorder radius="md" padding="lg">
          <GeofencesSection
            geofences={draft.geofences}
            onChange={(geofences) => update({ geofences })}
            error={shown.geofences}
          />
        </Card>
        <Group justify="space-between">
          <Group gap="xs">
            <Button type="submit" loading={save.isPending}>
              {creating ? 'Create group' : 'Save group'}
            </Button>
            <Button variant="default" component={Link} to="/admin/overwatch">
              Cancel
            </Button>
          </Group>
          {group && group.archivedAt === null && (
            <Button variant="subtle" color="red" onClick={() => setArchiving(true)}>
              Archive group
            </Button>
          )}
        </Group>
      </Stack>
      {archiving && group && (
        <ArchiveGroupModal
          group={group}
          onClose={() => setArchiving(false)}
          onArchived={() => void navigate('/admin/overwatch')}
        />
      )}
    </form>
  );
}

/**
 * /admin/overwatch/{id}/edit (issue 14): one group's name, language, numbers, movement and
 * geofences; `new` instead of an id creates one.
 */
export function OverwatchGroupEditPage() {
  const { id = '' } = useParams();
  const creating = id === 'new';
  const valid = uuidPattern.test(id);
  const group = useOverwatchGroup(id, !creating && valid);
  const missing =
    (!creating && !valid) ||
    (group.isError &&
      group.error instanceof ApiError &&
      [400, 403, 404].includes(group.error.status));

  return (
    <Container size="lg" py="md">
      <Stack gap="lg">
        <Anchor component={Link} to="/admin/overwatch" size="sm">
          All Overwatch groups
        </Anchor>
        {creating && (
          <>
            <Title order={1} fz={26}>
              New Overwatch group
            </Title>
            <GroupForm group={null} initial={emptyDraft()} />
          </>
        )}
        {!creating && valid && group.isPending && (
          <Loader size="sm" aria-label="Loading the group" />
        )}
        {missing && (
          <>
            <Title order={1} fz={26}>
              Group not found
            </Title>
            <Text>This is not an Overwatch group of a team you administer.</Text>
          </>
        )}
        {group.isError && !missing && (
          <>
            <Title order={1} fz={26}>
              Overwatch group
            </Title>
            <Alert color="red" role="alert">
              The group could not be loaded: {failureMessage(group.error)}
            </Alert>
          </>
        )}
        {!creating && group.data && (
          <>
            <Title order={1} fz={26} style={{ overflowWrap: 'anywhere' }}>
              Overwatch group: {group.data.name}
            </Title>
            <GroupForm key={group.data.id} group={group.data} initial={draftOf(group.data)} />
          </>
        )}
      </Stack>
    </Container>
  );
}
