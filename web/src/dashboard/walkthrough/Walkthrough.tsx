import { Box, Button, Group, Paper, Text, Title } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { createPortal } from 'react-dom';
import { placeCard, type Box as Rect } from './placement';
import { rememberTourSkipped, tourSkippedInThisTab, tourSteps, tourTargetSelector } from './steps';

/**
 * Above the page (the map is isolated, its banners at 150), under Mantine's modals (200) and
 * menus (300): the user menu and a profile opened meanwhile cover the tour, not the reverse.
 */
const TOUR_Z_INDEX = 190;
/**
 * Closed (Done or Skip) during this page load: the dashboard unmounts the tour while a modal
 * or a tracking is on, and it must not start over when it comes back.
 */
let closedThisPageLoad = false;

/** The ring drawn around the target, a little outside it. */
const RING_PADDING = 4;

function targetOf(step: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(tourTargetSelector(tourSteps[step]!.target));
}

function rectOf(element: HTMLElement | null): Rect | null {
  if (!element) return null;
  const { top, left, width, height } = element.getBoundingClientRect();
  return { top, left, width, height };
}

const sameRect = (a: Rect | null, b: Rect | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.top === b.top &&
    a.left === b.left &&
    a.width === b.width &&
    a.height === b.height);

/** The focusable controls inside the card, in order. */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>('button:not(:disabled)')];
}

/**
 * The dashboard's guided tour, for a user who has not ended a first tracking yet (SPEC.md §3
 * hasSeenWalkthrough, §4 "Ending tracking" step 1): four steps pointing at the number field,
 * Locate, the many-numbers toggle and the log. A non-modal dialog beside a ring around its
 * target: the page stays usable (a dispatcher who must locate someone now just does), focus
 * moves into the card and back to the page when it closes, Tab stays within the card, Escape
 * or Skip tour closes it for this tab, Done for this page load. Without animation when the
 * user asks for reduced motion.
 *
 * The parent mounts it only while the tour applies (flag false, not tracking, no modal open);
 * unmounting closes it.
 */
export default function Walkthrough() {
  const [open, setOpen] = useState(() => !closedThisPageLoad && !tourSkippedInThisTab());
  const [step, setStep] = useState(0);
  const [target, setTarget] = useState<Rect | null>(null);
  const [cardHeight, setCardHeight] = useState(0);
  const [viewport, setViewport] = useState(() => ({
    width: window.innerWidth,
    height: window.innerHeight,
  }));
  const card = useRef<HTMLDivElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<Element | null>(null);
  const reducedMotion = useReducedMotion();
  const labelId = useId();
  const titleId = useId();
  const textId = useId();
  const last = step === tourSteps.length - 1;
  const current = tourSteps[step]!;

  // Focus moves into the card when it opens; where it was is where it goes back to.
  useEffect(() => {
    if (!open) return;
    returnTo.current = document.activeElement;
    next.current?.focus();
  }, [open]);

  const close = useCallback((skipped: boolean) => {
    if (skipped) rememberTourSkipped();
    closedThisPageLoad = true;
    setOpen(false);
    const previous = returnTo.current;
    const back =
      previous instanceof HTMLElement && previous !== document.body && previous.isConnected
        ? previous
        : document.querySelector<HTMLElement>(tourTargetSelector('phone-number'));
    // After React has removed the card, so nothing takes focus back from the page.
    requestAnimationFrame(() => back?.focus());
  }, []);

  // Escape skips the tour, wherever focus is on the page, unless it is closing a modal opened
  // over it (the profile, from the user menu).
  useEffect(() => {
    if (!open) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      event.preventDefault();
      close(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);

  // The target's place, followed as the page scrolls, resizes or lays itself out again.
  useLayoutEffect(() => {
    if (!open) return;
    const element = targetOf(step);
    element?.scrollIntoView({
      block: 'nearest',
      inline: 'nearest',
      behavior: reducedMotion ? 'auto' : 'smooth',
    });
    const measure = () => {
      const rect = rectOf(targetOf(step));
      setTarget((previous) => (sameRect(previous, rect) ? previous : rect));
      setViewport((previous) =>
        previous.width === window.innerWidth && previous.height === window.innerHeight
          ? previous
          : { width: window.innerWidth, height: window.innerHeight },
      );
      if (card.current) setCardHeight(card.current.offsetHeight);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    if (element) observer.observe(element);
    if (card.current) observer.observe(card.current);
    window.addEventListener('resize', measure);
    // Scrolling anywhere (the details sheet scrolls inside itself) moves the target.
    window.addEventListener('scroll', measure, true);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, true);
    };
  }, [open, step, reducedMotion]);

  if (!open) return null;

  const place = placeCard(target, cardHeight, viewport);
  const goBack = () => {
    const previous = Math.max(0, step - 1);
    setStep(previous);
    // Back is not shown on the first step: focus goes on to Next rather than be lost.
    if (previous === 0) next.current?.focus();
  };
  const goNext = () => (last ? close(false) : setStep(step + 1));
  // Tab and Shift+Tab go round the card's buttons (Escape leaves).
  const keepFocusInside = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !card.current) return;
    const controls = focusables(card.current);
    if (controls.length === 0) return;
    const first = controls[0]!;
    const end = controls.at(-1)!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      end.focus();
    } else if (!event.shiftKey && document.activeElement === end) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    // Straight into the body (Mantine's Portal mounts its children a render later, and the
    // card must be there when focus moves into it).
    <>
      {target && target.width > 0 && target.height > 0 && (
        <Box
          aria-hidden
          data-testid="tour-ring"
          style={{
            position: 'fixed',
            top: target.top - RING_PADDING,
            left: target.left - RING_PADDING,
            width: target.width + 2 * RING_PADDING,
            height: target.height + 2 * RING_PADDING,
            borderRadius: 8,
            // Amber with a dark edge: seen on the navy header and on the white log alike.
            boxShadow: '0 0 0 3px var(--mantine-color-yellow-5), 0 0 0 5px rgba(0, 0, 0, 0.55)',
            pointerEvents: 'none',
            zIndex: TOUR_Z_INDEX,
            transition: reducedMotion
              ? undefined
              : 'top 150ms ease, left 150ms ease, width 150ms ease, height 150ms ease',
          }}
        />
      )}
      <Paper
        ref={card}
        role="dialog"
        aria-labelledby={`${labelId} ${titleId}`}
        aria-describedby={textId}
        data-tour-step={step + 1}
        onKeyDown={keepFocusInside}
        withBorder
        shadow="xl"
        p="md"
        radius="md"
        style={{
          position: 'fixed',
          top: place.top,
          left: place.left,
          width: place.width,
          zIndex: TOUR_Z_INDEX,
        }}
      >
        <Text id={labelId} size="xs" fw={700} tt="uppercase">
          Dashboard tour · Step {step + 1} of {tourSteps.length}
        </Text>
        {/* Focus stays on Next from step to step: the new step is read out from here. */}
        <Box aria-live="polite">
          <Title order={2} size="h4" id={titleId} mt={4}>
            {current.title}
          </Title>
          <Text id={textId} size="sm" mt={6}>
            {current.text}
          </Text>
        </Box>
        <Group justify="space-between" mt="md" gap="xs" wrap="nowrap">
          <Button variant="subtle" size="compact-sm" onClick={() => close(true)}>
            Skip tour
          </Button>
          <Group gap="xs" wrap="nowrap">
            {step > 0 && (
              <Button variant="default" size="compact-sm" onClick={goBack}>
                Back
              </Button>
            )}
            <Button ref={next} size="compact-sm" onClick={goNext}>
              {last ? 'Done' : 'Next'}
            </Button>
          </Group>
        </Group>
      </Paper>
    </>,
    document.body,
  );
}
