/** The Locus mark: a location pin with a signal ring, drawn inline so it costs no request. */
export function LocusMark({ size = 30, onDark = false }: { size?: number; onDark?: boolean }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      style={{ flex: 'none' }}
    >
      <rect width="32" height="32" rx="8" fill={onDark ? '#ffffff' : '#0a1a33'} />
      <path
        d="M16 6.5c-4 0-7 3-7 6.9 0 5 7 12.1 7 12.1s7-7.1 7-12.1c0-3.9-3-6.9-7-6.9Z"
        fill="#c8102e"
      />
      <circle cx="16" cy="13.4" r="2.7" fill={onDark ? '#ffffff' : '#0a1a33'} />
    </svg>
  );
}
