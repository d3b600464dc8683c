import { createTheme, type MantineColorsTuple } from '@mantine/core';

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
  primaryShade: { light: 8, dark: 5 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  defaultRadius: 'md',
  // Keyboard users always see where they are (WCAG 2.4.7); mouse clicks stay ring-free.
  focusRing: 'auto',
  components: {
    Modal: {
      defaultProps: {
        centered: true,
        overlayProps: { backgroundOpacity: 0.55, blur: 2 },
        // Mantine's close button is an icon alone: without this it has no name (WCAG 4.1.2).
        closeButtonProps: { 'aria-label': 'Close' },
      },
      styles: { title: { fontSize: 20, fontWeight: 700 } },
    },
  },
});

/** The header and sidebar background of the signed-in console. */
export const consoleChrome = '#0f2a52';
