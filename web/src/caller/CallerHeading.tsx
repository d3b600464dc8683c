import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A view's title. `announce` moves focus to it when the view appears after something happened
 * (a tap, the dispatcher ending the request), so screen readers say where the caller now is.
 */
export function CallerHeading({
  title,
  icon,
  color = 'navy',
  announce = false,
  children,
}: {
  title: string;
  icon: ReactNode;
  color?: string;
  announce?: boolean;
  children?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (announce) heading.current?.focus();
  }, [announce]);
  return (
    <Stack gap="sm" align="center" ta="center">
      <ThemeIcon size={56} radius="xl" variant="light" color={color} aria-hidden>
        {icon}
      </ThemeIcon>
      <Title ref={heading} tabIndex={-1} order={1} fz={26} lh={1.25} style={{ outline: 'none' }}>
        {title}
      </Title>
      {children && (
        <Text size="lg" c="gray.8">
          {children}
        </Text>
      )}
    </Stack>
  );
}
