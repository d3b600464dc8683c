import {
  teamRoleLabels,
  verificationLimits,
  type ApproveBody,
  type TeamRole,
  type WaitingUser,
} from '@locus/contract';
import {
  Alert,
  Button,
  Group,
  Modal,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, expect } from '../../app/api';
import { modalWidths } from '../../public-site/modal-widths';
import {
  closableNotice,
  failureMessage,
  fieldIssue,
  useAttachableTeams,
  useRefreshVerification,
} from './queries';

const fullName = (user: WaitingUser) => `${user.firstName} ${user.lastName}`;

/**
 * Approve: attach the user to an existing team with a role, or create their agency's team (the
 * user becomes its team admin). The user can locate on their next request.
 */
export function ApproveModal({ user, onClose }: { user: WaitingUser | null; onClose: () => void }) {
  const [mode, setMode] = useState<'existing' | 'new'>('existing');
  const [teamId, setTeamId] = useState<string | null>(null);
  const [role, setRole] = useState<TeamRole>('member');
  const [teamName, setTeamName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const teams = useAttachableTeams(user !== null);
  const refresh = useRefreshVerification();
  const approve = useMutation({
    mutationFn: async (body: ApproveBody) =>
      expect(await api.verification.approve({ params: { id: user!.id }, body }), 200),
    onSuccess: async (approved) => {
      notifications.show({
        ...closableNotice,
        color: 'green',
        message: `${user ? fullName(user) : 'The user'} approved and added to ${approved.teamName}`,
      });
      await refresh();
      close();
    },
  });

  function close() {
    setMode('existing');
    setTeamId(null);
    setRole('member');
    setTeamName('');
    setSubmitted(false);
    approve.reset();
    onClose();
  }

  const teamError = submitted && mode === 'existing' && !teamId ? 'Choose a team' : null;
  const nameError =
    submitted && mode === 'new' && teamName.trim() === ''
      ? 'Enter the new team’s name'
      : (fieldIssue(approve.error, 'newTeamName') ?? null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (mode === 'existing' && teamId) approve.mutate({ teamId, role });
    if (mode === 'new' && teamName.trim() !== '') approve.mutate({ newTeamName: teamName.trim() });
  }

  return (
    <Modal
      opened={user !== null}
      onClose={close}
      title={user ? `Approve ${fullName(user)}` : 'Approve'}
      size={modalWidths.narrow}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {user?.email}
            {user?.unlistedAgencyName ? ` · agency typed: ${user.unlistedAgencyName}` : ''}
          </Text>
          <Radio.Group
            label="Where do they belong?"
            value={mode}
            onChange={(value) => setMode(value === 'new' ? 'new' : 'existing')}
          >
            <Stack gap={6} mt={6}>
              <Radio value="existing" label="An existing team" />
              <Radio value="new" label="A new team for their agency" />
            </Stack>
          </Radio.Group>
          {mode === 'existing' ? (
            <>
              <Select
                label="Team"
                placeholder={teams.isPending ? 'Loading teams…' : 'Choose a team'}
                searchable
                required
                data={(teams.data ?? []).map((team) => ({
                  value: team.id,
                  label: team.isActive ? team.teamName : `${team.teamName} (inactive)`,
                }))}
                value={teamId}
                onChange={setTeamId}
                error={teamError}
                nothingFoundMessage="No team matches"
                comboboxProps={{ withinPortal: true }}
              />
              <Radio.Group
                label="Role"
                value={role}
                onChange={(value) => setRole(value === 'admin' ? 'admin' : 'member')}
              >
                <Group gap="md" mt={6}>
                  <Radio value="member" label={teamRoleLabels.member} />
                  <Radio value="admin" label={teamRoleLabels.admin} />
                </Group>
              </Radio.Group>
            </>
          ) : (
            <TextInput
              label="New team’s name"
              description="Basic level; they become its team admin."
              required
              maxLength={verificationLimits.teamNameMaxLength}
              value={teamName}
              onChange={(event) => setTeamName(event.currentTarget.value)}
              error={nameError}
            />
          )}
          {teams.isError && (
            <Alert color="red" role="alert">
              The teams could not be loaded: {failureMessage(teams.error)}
            </Alert>
          )}
          {approve.isError && !fieldIssue(approve.error, 'newTeamName') && (
            <Alert color="red" role="alert">
              {failureMessage(approve.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={approve.isPending}>
              Approve
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Reject with a reason, which the user receives by e-mail. */
export function RejectModal({ user, onClose }: { user: WaitingUser | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const refresh = useRefreshVerification();
  const reject = useMutation({
    mutationFn: async () =>
      expect(
        await api.verification.reject({
          params: { id: user!.id },
          body: { reason: reason.trim() },
        }),
        200,
      ),
    onSuccess: async () => {
      notifications.show({
        ...closableNotice,
        color: 'green',
        message: `${user ? fullName(user) : 'The user'} rejected; they were e-mailed the reason`,
      });
      await refresh();
      close();
    },
  });

  function close() {
    setReason('');
    setSubmitted(false);
    reject.reset();
    onClose();
  }

  const trimmed = reason.trim();
  const reasonError = submitted
    ? trimmed === ''
      ? 'Enter the reason; the user receives it by e-mail'
      : trimmed.length > verificationLimits.reasonMaxLength
        ? `At most ${verificationLimits.reasonMaxLength} characters`
        : fieldIssue(reject.error, 'reason')
    : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (trimmed !== '' && trimmed.length <= verificationLimits.reasonMaxLength) reject.mutate();
  }

  return (
    <Modal
      opened={user !== null}
      onClose={close}
      title={user ? `Reject ${fullName(user)}` : 'Reject'}
      size={modalWidths.narrow}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Textarea
            label="Reason"
            description={`Sent to ${user?.email ?? 'the user'} by e-mail (at most ${verificationLimits.reasonMaxLength} characters).`}
            required
            autosize
            minRows={3}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={reasonError}
          />
          {reject.isError && !fieldIssue(reject.error, 'reason') && (
            <Alert color="red" role="alert">
              {failureMessage(reject.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={reject.isPending}>
              Reject
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
