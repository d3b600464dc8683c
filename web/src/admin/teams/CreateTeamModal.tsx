import { levelsOf, TeamName, type TeamLevel } from '@locus/contract';
import { Alert, Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, expect } from '../../app/api';
import { useSession } from '../../app/session';
import { modalWidths } from '../../public-site/modal-widths';
import { LevelChoice } from './LevelChoice';
import { failureMessage } from './queries';
import { useTeamChanged } from './team-queries';

function nameError(name: string): string | null {
  const parsed = TeamName.safeParse(name);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Enter a name');
}

/** Platform admins: a new team with its name, active state and level; then its edit page. */
export function CreateTeamModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [isActive, setActive] = useState(true);
  const [level, setLevel] = useState<TeamLevel>('basic');
  const [submitted, setSubmitted] = useState(false);
  const navigate = useNavigate();
  const { teams } = useSession();
  const changed = useTeamChanged();
  const create = useMutation({
    mutationFn: async () =>
      expect(
        await api.teams.create({
          body: { teamName: name.trim(), isActive, permissionLevels: levelsOf(level) },
        }),
        201,
      ),
    onSuccess: async (team) => {
      notifications.show({
        color: 'green',
        message: `Team ${team.teamName} created`,
        closeButtonProps: { 'aria-label': 'Close notice' },
      });
      await changed(team, teams);
      close();
      await navigate(`/admin/teams/${team.id}/edit`);
    },
  });

  function close() {
    setName('');
    setActive(true);
    setLevel('basic');
    setSubmitted(false);
    create.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (nameError(name) !== null || create.isPending) return;
    create.mutate();
  }

  return (
    <Modal opened={opened} onClose={close} title="Create team" size={modalWidths.narrow}>
      <form noValidate onSubmit={submit}>
        <Stack>
          <TextInput
            label="Team name"
            withAsterisk
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={submitted ? nameError(name) : null}
            data-autofocus
          />
          <Switch
            label="Active"
            description="Members of an inactive team cannot locate."
            checked={isActive}
            onChange={(event) => setActive(event.currentTarget.checked)}
          />
          <LevelChoice value={level} onChange={setLevel} />
          {create.isError && (
            <Alert color="red" role="alert">
              {failureMessage(create.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create team
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
