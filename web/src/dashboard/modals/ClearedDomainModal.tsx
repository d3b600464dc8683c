import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { modalWidths } from '../../public-site/modal-widths';
import { usePublicConfig } from '../../public-site/public-config';

/** SPEC.md §8: `unauthorized-domain`, the user's email domain is not cleared to locate callers. */
export function ClearedDomainModal({
  opened,
  email,
  onClose,
}: {
  opened: boolean;
  email: string | null;
  onClose: () => void;
}) {
  const supportUrl = usePublicConfig().data?.links.support;
  const domain = email?.split('@')[1] ?? null;
  const support = supportUrl ? (
    <Anchor href={supportUrl} target="_blank" rel="noopener noreferrer">
      contact support
    </Anchor>
  ) : (
    'contact support'
  );
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Your email domain is not cleared"
      size={modalWidths.narrow}
      withCloseButton={false}
    >
      <Stack gap="md">
        <Text size="sm">
          Locus locates callers only for agencies whose email domain has been cleared. Ask your
          administrator or {support} to clear {domain ? <strong>{domain}</strong> : 'your domain'}.
        </Text>
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
