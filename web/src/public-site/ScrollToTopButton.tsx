import { ActionIcon, Affix, Transition } from '@mantine/core';
import { IconArrowUp } from '@tabler/icons-react';
import type { RefObject } from 'react';
import { scrollToTop, useScrolledPast } from './scroll';

/** Appears once the visitor has scrolled past the `after` section (SPEC.md §2 "Landing page"). */
export function ScrollToTopButton({ after }: { after: RefObject<HTMLElement | null> }) {
  const visible = useScrolledPast(after);
  return (
    <Affix position={{ bottom: 24, right: 24 }} zIndex={150}>
      <Transition transition="slide-up" mounted={visible}>
        {(style) => (
          <ActionIcon
            style={{ ...style, boxShadow: '0 8px 24px rgba(7, 20, 42, 0.35)' }}
            size={48}
            radius="xl"
            color="#0b1f3a"
            aria-label="Scroll to top"
            title="Scroll to top"
            onClick={() => {
              scrollToTop();
              document.getElementById('main')?.focus({ preventScroll: true });
            }}
          >
            <IconArrowUp size={24} aria-hidden="true" />
          </ActionIcon>
        )}
      </Transition>
    </Affix>
  );
}
