import { Button } from '@mantine/core';
import { IconMapPinOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeading } from '../auth/pages/PageHeading';

export function NotFoundPage() {
  return (
    <>
      <PageHeading title="Page not found" icon={<IconMapPinOff size={28} />}>
        There is nothing at this address. It may have moved, or the link may be mistyped.
      </PageHeading>
      <Button component={Link} to="/" fullWidth size="md" variant="light">
        Go to the home page
      </Button>
    </>
  );
}
