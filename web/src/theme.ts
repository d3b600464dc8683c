import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Deep navy: the console's chrome and primary actions. */
const navy: MantineColorsTuple = [
  '#eef3fa',
  '#dbe3f1',
  '#b3c5e3',
  '#88a5d5',
  '#6489c8',
  '#4d78c0',
  '#3f6ebd',
  '#305da7',
  '#275295',
  '#0f2a52',
];

/** Signal red: emergencies and the few actions that must stand out. */
const signal: MantineColorsTuple = [
  '#ffeaea',
  '#fdd4d4',
  '#f5a6a6',
  '#ef7575',
  '#e94b4b',
  '#e63131',
  '#e52323',
  '#cc1617',
  '#b60e13',
  '#a0000d',
];

export const theme = createTheme({
  colors: { navy, signal },
  primaryColor: 'navy',
  // White on the dark theme's filled navy keeps 6.5:1 (shade 5 gave 4.4, under AA's 4.5).
  primaryShade: { light: 8, dark: 7 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  defaultRadius: 'md',
  // Keyboard users always see where they are (WCAG 2.4.7); mouse clicks stay ring-free.
  focusRing: 'auto',
  components: {
    // A loader is named by its `aria-label` ("Loading teams"), which ARIA forbids on an element
    // without a role (axe aria-prohibited-attr, WCAG 4.1.2): as a status, it may carry the name,
    // and a screen reader hears what is loading.
    Loader: { defaultProps: { role: 'status' } },
    // A snackbar's close button is an icon alone: name it (WCAG 4.1.2).
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Modal: {
      defaultProps: {
        centered: true,
        // No backdrop blur: without a GPU (a dispatch centre's VDI desktop, a cheap phone, a
        // headless test browser) a blurred backdrop is repainted on every caret blink, about a
        // third of a core for as long as a field in the modal has focus.
        overlayProps: { backgroundOpacity: 0.6 },
        // Mantine's close button is an icon alone: without this it has no name (WCAG 4.1.2).
        closeButtonProps: { 'aria-label': 'Close' },
      },
      styles: { title: { fontSize: 20, fontWeight: 700 } },
    },
  },
});

/**
 * The dark theme's text colours where Mantine's own fall under AA (4.5:1) on its dark surfaces
 * (the page, cards, menus and inputs, #1f1f1f to #2e2e2e): dimmed text (dark-2 gives 3.5:1),
 * errors (red-8, 3.0:1), links and navy text (navy-4, 3.9:1). Light is Mantine's as it is.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {},
  dark: {
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-anchor': 'var(--mantine-color-navy-3)',
    '--mantine-color-navy-text': 'var(--mantine-color-navy-3)',
  },
});

/** The header and sidebar background of the signed-in console (navy in either theme). */
export const consoleChrome = '#0f2a52';

/** The console's page background: a quiet grey under white cards, or just darker than them. */
export const consoleBackground =
  'light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))';

/** Text that warns (a stale fix, a blocked location, a low battery): AA in both themes. */
export const warningText = 'light-dark(var(--mantine-color-signal-8), var(--mantine-color-red-3))';
/** A fix that came by text (violet) and one that came late (orange), as words: both themes. */
export const textedText =
  'light-dark(var(--mantine-color-violet-9), var(--mantine-color-violet-3))';
export const delayedText = 'light-dark(#9c3c00, var(--mantine-color-orange-3))';
/** The side panel's edge, in either theme. */
export const panelBorder = '1px solid var(--mantine-color-default-border)';
