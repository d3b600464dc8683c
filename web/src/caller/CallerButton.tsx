import { Button } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The page's main actions: full width, at least 64 px tall, and a label that wraps rather than
 * being cut off on a 320 px screen in a long language.
 */
export function CallerButton({
  icon,
  onClick,
  variant = 'filled',
  color,
  children,
}: {
  icon?: ReactNode;
  onClick: () => void;
  variant?: 'filled' | 'outline';
  color?: string;
  children: string;
}) {
  return (
    <Button
      size="xl"
      fullWidth
      variant={variant}
      color={color}
      leftSection={icon}
      onClick={onClick}
      styles={{
        root: { height: 'auto', minHeight: 64, paddingBlock: 10 },
        label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.25 },
      }}
    >
      {children}
    </Button>
  );
}
