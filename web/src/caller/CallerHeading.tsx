/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Icon, type IconName } from './icons';

export type Tone = 'navy' | 'teal' | 'gray' | 'signal';

/**
 * A view's title. `announce`: the view appears after something happened (a tap, the dispatcher
 * ending the request); if that took away the control the caller was on (focus fell back to the
 * page), focus comes here, so screen readers say where the caller now is and the next Tab goes
 * on from the view's top. Focus the caller has elsewhere is never taken.
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
    const active = document.activeElement;
    if (announce && (active === null || active === document.body)) heading.current?.focus();
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
