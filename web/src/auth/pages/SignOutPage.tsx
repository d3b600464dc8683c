import { Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { signOut } from '../../app/auth';

/** /auth/sign-out, always allowed through: revoke the token, log out, go to sign-in. */
export function SignOutPage() {
  const navigate = useNavigate();
  useEffect(() => {
    void signOut().then(() => navigate('/auth/sign-in', { replace: true }));
  }, [navigate]);
  return (
    <Center py="xl" role="status">
      <Stack align="center">
        <Loader />
        <Text>Signing out…</Text>
      </Stack>
    </Center>
  );
}
