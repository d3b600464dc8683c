import type { StatusLevel } from '@locus/contract';
import { Badge } from '@mantine/core';
import { IconAlertOctagon, IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';

/**
 * A level in words and an icon as well as a colour (WCAG 1.4.1: colour is never the only
 * sign). Solid fills chosen for AA contrast in both themes: white on dark green and dark red,
 * near-black on amber.
 */
export const levelStyle: Record<
  StatusLevel,
  { label: string; background: string; text: string; Icon: typeof IconCircleCheck }
> = {
  green: { label: 'OK', background: '#237032', text: '#ffffff', Icon: IconCircleCheck },
  amber: { label: 'Amber', background: '#fcc419', text: '#1a1a1a', Icon: IconAlertTriangle },
  red: { label: 'Red', background: '#b60e13', text: '#ffffff', Icon: IconAlertOctagon },
};

export function LevelBadge({ level, size = 'md' }: { level: StatusLevel; size?: 'md' | 'lg' }) {
  const { label, background, text, Icon } = levelStyle[level];
  return (
    <Badge
      size={size}
      radius="sm"
      leftSection={<Icon size={size === 'lg' ? 18 : 14} aria-hidden />}
      styles={{ root: { background, color: text, textTransform: 'none', flexShrink: 0 } }}
      data-level={level}
    >
      {label}
    </Badge>
  );
}
