import type { ApiKey } from '@locus/contract';
import { Text } from '@mantine/core';
import type { RefObject } from 'react';
import { ConfirmModal } from '../ConfirmModal';
import { useRevokeApiKey } from './queries';

/** Revoking asks first: the partner's next request fails, and a key cannot be restored. */
export function RevokeKeyModal({
  teamId,
  apiKey,
  onClose,
  returnFocusTo,
}: {
  teamId: string;
  apiKey: ApiKey;
  onClose: () => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const revoke = useRevokeApiKey(teamId);
  return (
    <ConfirmModal
      title="Revoke API key"
      confirmLabel="Revoke key"
      onConfirm={() => revoke.mutate(apiKey.id, { onSuccess: onClose })}
      onClose={onClose}
      pending={revoke.isPending}
      error={revoke.error}
      returnFocusTo={returnFocusTo}
    >
      <Text>
        Revoke <strong style={{ overflowWrap: 'anywhere' }}>{apiKey.name}</strong> (
        <code>{apiKey.prefix}…</code>)? Every system using it, and every access token issued for it,
        stops at once. This cannot be undone.
      </Text>
    </ConfirmModal>
  );
}
