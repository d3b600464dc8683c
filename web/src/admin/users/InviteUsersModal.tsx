import { Email, teamRoleLabels, TeamRole } from '@locus/contract';
import {
  ActionIcon,
  Alert,
  Button,
  Fieldset,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../app/api';
import { modalWidths } from '../../public-site/modal-widths';
import { failureMessage, useInvite } from './queries';

interface Row {
  key: number;
  firstName: string;
  lastName: string;
  email: string;
  role: TeamRole;
}
type Field = 'firstName' | 'lastName' | 'email';
type Errors = Record<number, Partial<Record<Field, string>>>;

let nextKey = 1;
const blankRow = (): Row => ({
  key: nextKey++,
  firstName: '',
  lastName: '',
  email: '',
  role: 'member',
});

const roleOptions = TeamRole.options.map((role) => ({ value: role, label: teamRoleLabels[role] }));

function validate(rows: Row[]): Errors {
  const errors: Errors = {};
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const rowErrors: Partial<Record<Field, string>> = {};
    if (row.firstName.trim() === '') rowErrors.firstName = 'Enter a first name';
    if (row.lastName.trim() === '') rowErrors.lastName = 'Enter a last name';
    const email = Email.safeParse(row.email);
    if (!email.success) rowErrors.email = email.error.issues[0]?.message ?? 'Enter a valid email';
    else if (seen.has(email.data)) rowErrors.email = 'This address is already in the list';
    else seen.add(email.data);
    if (Object.keys(rowErrors).length > 0) errors[index] = rowErrors;
  });
  return errors;
}

/** The server's field errors (`users.0.email`) beside the fields they name. */
function serverErrors(error: unknown): Errors {
  const errors: Errors = {};
  if (!(error instanceof ApiError)) return errors;
  for (const issue of error.body?.issues ?? []) {
    const match = /^users\.(\d+)\.(firstName|lastName|email)$/.exec(issue.path);
    if (!match) continue;
    const index = Number(match[1]);
    errors[index] = { ...errors[index], [match[2] as Field]: issue.message };
  }
  return errors;
}

/**
 * Invite one person or many at once to a team, each with a role. Everyone gets an e-mail: a new
 * address a link to choose a password (which confirms it), an existing account an invitation.
 */
export function InviteUsersModal({
  opened,
  onClose,
  teams,
}: {
  opened: boolean;
  onClose: () => void;
  teams: { id: string; teamName: string }[];
}) {
  const [rows, setRows] = useState<Row[]>(() => [blankRow()]);
  const [teamId, setTeamId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const invite = useInvite();
  const chosenTeam = teams.length === 1 ? teams[0]!.id : teamId;

  const close = () => {
    setRows([blankRow()]);
    setErrors({});
    setTeamId(null);
    setSubmitted(false);
    invite.reset();
    onClose();
  };
  const update = (index: number, change: Partial<Row>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validate(rows);
    setErrors(found);
    if (Object.keys(found).length > 0 || chosenTeam === null) return;
    invite.mutate(
      {
        teamId: chosenTeam,
        users: rows.map((row) => ({
          firstName: row.firstName.trim(),
          lastName: row.lastName.trim(),
          email: row.email.trim().toLowerCase(),
          role: row.role,
        })),
      },
      {
        onSuccess: ({ invited }) => {
          notifications.show({
            closeButtonProps: { 'aria-label': 'Close notice' },
            color: 'green',
            message:
              invited === 1
                ? 'Invitation sent to 1 person.'
                : `Invitations sent to ${invited} people.`,
          });
          close();
        },
        onError: (error) => setErrors(serverErrors(error)),
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Invite users"
      size={modalWidths.wide}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            Each person gets an e-mail with a link to set their password and join the team.
          </Text>
          {teams.length > 1 && (
            <Select
              label="Team"
              placeholder="Choose a team"
              data={teams.map((team) => ({ value: team.id, label: team.teamName }))}
              value={teamId}
              onChange={setTeamId}
              required
              error={submitted && chosenTeam === null ? 'Choose a team' : undefined}
            />
          )}
          {invite.isError && (
            <Alert color="red" role="alert">
              {failureMessage(invite.error)}
            </Alert>
          )}
          {rows.map((row, index) => (
            <Fieldset key={row.key} legend={`Person ${index + 1}`} p="sm">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                <TextInput
                  label="First name"
                  value={row.firstName}
                  onChange={(event) => update(index, { firstName: event.currentTarget.value })}
                  error={errors[index]?.firstName}
                  required
                />
                <TextInput
                  label="Last name"
                  value={row.lastName}
                  onChange={(event) => update(index, { lastName: event.currentTarget.value })}
                  error={errors[index]?.lastName}
                  required
                />
                <TextInput
                  label="Email"
                  type="email"
                  value={row.email}
                  onChange={(event) => update(index, { email: event.currentTarget.value })}
                  error={errors[index]?.email}
                  required
                />
                <Group align="flex-end" gap="xs" wrap="nowrap">
                  <Select
                    label="Role"
                    data={roleOptions}
                    value={row.role}
                    allowDeselect={false}
                    onChange={(value) => {
                      const role = TeamRole.safeParse(value);
                      if (role.success) update(index, { role: role.data });
                    }}
                    style={{ flex: 1 }}
                  />
                  {rows.length > 1 && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={`Remove person ${index + 1}`}
                      onClick={() => {
                        setRows((current) => current.filter((_, i) => i !== index));
                        setErrors({});
                      }}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  )}
                </Group>
              </SimpleGrid>
            </Fieldset>
          ))}
          <Group justify="space-between">
            <Button
              variant="default"
              leftSection={<IconPlus size={16} />}
              onClick={() => setRows((current) => [...current, blankRow()])}
              disabled={rows.length >= 200}
            >
              Add another person
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={invite.isPending}>
                {rows.length === 1 ? 'Send invitation' : `Send ${rows.length} invitations`}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
