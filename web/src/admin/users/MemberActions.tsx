import { teamRoleLabels, TeamRole } from '@locus/contract';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { modalWidths } from '../../public-site/modal-widths';
import { failureMessage, useChangeRole, useRemoveMember } from './queries';

/** A notice's close button is an icon alone: it needs a name (WCAG 4.1.2). */
const closableNotice = { closeButtonProps: { 'aria-label': 'Close notice' } };

export interface MemberRef {
  userId: string;
  name: string;
  teamId: string;
  teamName: string;
  role: TeamRole;
}

const roleOptions = TeamRole.options.map((role) => ({ value: role, label: teamRoleLabels[role] }));

/**
 * A member's role on one team. A failure (the last team admin cannot be demoted) goes to
 * `onError`, which the screen shows in an Alert; the Select goes back to the stored role.
 */
export function RoleSelect({
  member,
  onError,
}: {
  member: MemberRef;
  onError: (message: string | null) => void;
}) {
  const change = useChangeRole();
  return (
    <Select
      label={`Role on ${member.teamName}`}
      data={roleOptions}
      value={member.role}
      allowDeselect={false}
      disabled={change.isPending}
      w={180}
      onChange={(value) => {
        const parsed = TeamRole.safeParse(value);
        if (!parsed.success || parsed.data === member.role) return;
        onError(null);
        change.mutate(
          { teamId: member.teamId, userId: member.userId, role: parsed.data },
          {
            onSuccess: () =>
              notifications.show({
                ...closableNotice,
                color: 'green',
                message: `${member.name} is now ${teamRoleLabels[parsed.data]} of ${member.teamName}.`,
              }),
            onError: (error) => onError(failureMessage(error)),
          },
        );
      }}
    />
  );
}

/** "Remove from team", confirmed in a dialog first: it signs the person out everywhere. */
export function RemoveFromTeam({
  member,
  onError,
  onRemoved,
}: {
  member: MemberRef;
  onError: (message: string | null) => void;
  onRemoved?: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const remove = useRemoveMember();
  return (
    <>
      <Button
        variant="filled"
        color="red.9"
        onClick={() => {
          onError(null);
          setConfirming(true);
        }}
        aria-label={`Remove ${member.name} from ${member.teamName}`}
      >
        Remove
      </Button>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Remove ${member.name} from ${member.teamName}?`}
        size={modalWidths.narrow}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Text size="sm">
            They lose access to {member.teamName} at once and are signed out of every device. Their
            account stays; you can invite them again later.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              color="red.9"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(
                  { teamId: member.teamId, userId: member.userId },
                  {
                    onSuccess: () => {
                      setConfirming(false);
                      notifications.show({
                        ...closableNotice,
                        color: 'green',
                        message: `${member.name} was removed from ${member.teamName}.`,
                      });
                      onRemoved?.();
                    },
                    onError: (error) => {
                      setConfirming(false);
                      onError(failureMessage(error));
                    },
                  },
                )
              }
            >
              Remove from team
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
