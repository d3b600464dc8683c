/** @jsxImportSource preact */
import { Icon, type IconName } from './icons';

/**
 * The page's main actions: full width, at least 64 px tall, and a label that wraps rather than
 * being cut off on a 320 px screen in a long language.
 */
export function CallerButton({
  icon,
  onClick,
  variant = 'filled',
  children,
}: {
  icon?: IconName;
  onClick: () => void;
  variant?: 'filled' | 'outline';
  children: string;
}) {
  return (
    <button type="button" class={`btn ${variant}`} onClick={onClick}>
      {icon && <Icon name={icon} size={26} />}
      <span>{children}</span>
    </button>
  );
}
