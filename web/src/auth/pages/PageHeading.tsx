import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The title block of an account page; its h1 names the page for screen readers. */
export function PageHeading({
  title,
  children,
  icon,
  color = 'navy',
}: {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
  color?: string;
}) {
  return (
    <Stack gap="xs" mb="lg" align="center" ta="center">
      {icon && (
        <ThemeIcon size={52} radius="xl" variant="light" color={color} aria-hidden>
          {icon}
        </ThemeIcon>
      )}
      <Title order={1} fz={26}>
        {title}
      </Title>
      {children && <Text c="gray.7">{children}</Text>}
    </Stack>
  );
}
