/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Icon, type IconName } from './icons';

export type Tone = 'navy' | 'teal' | 'gray' | 'signal';

/**
 * A view's title. `announce` moves focus to it when the view appears after something happened
 * (a tap, the dispatcher ending the request), so screen readers say where the caller now is.
 */
export function CallerHeading({
  title,
  icon,
  tone = 'navy',
  announce = false,
  children,
}: {
  title: string;
  icon: IconName;
  tone?: Tone;
  announce?: boolean;
  children?: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (announce) heading.current?.focus();
  }, [announce]);
  return (
    <div class="heading">
      <span class={`badge ${tone}`}>
        <Icon name={icon} size={30} />
      </span>
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children && <p class="lead">{children}</p>}
    </div>
  );
}
