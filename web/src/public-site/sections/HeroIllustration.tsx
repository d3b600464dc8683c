import classes from '../public-site.module.css';

/**
 * A dispatcher's view of a located caller, drawn in SVG: no image to download, sharp at any
 * size, and the pulse stops for visitors who prefer reduced motion.
 */
export function HeroIllustration() {
  return (
    <svg
      viewBox="0 0 520 440"
      role="img"
      aria-label="A dispatcher's map showing a caller's shared location, its accuracy circle and the caller's recent trail"
    >
      <defs>
        <clipPath id="ps-map-clip">
          <rect x="0" y="56" width="520" height="264" />
        </clipPath>
        <linearGradient id="ps-card" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#13335c" />
          <stop offset="1" stopColor="#0d2442" />
        </linearGradient>
      </defs>

      <rect
        x="0.5"
        y="0.5"
        width="519"
        height="439"
        rx="18"
        fill="url(#ps-card)"
        stroke="#2a4a75"
      />

      {/* Title bar */}
      <circle cx="26" cy="28" r="5" fill="#c8102e" />
      <text x="42" y="33" fill="#ffffff" fontSize="15" fontWeight="700" fontFamily="inherit">
        Locating +1 (555) 010-0142
      </text>
      <rect x="404" y="14" width="100" height="28" rx="14" fill="#c8102e" />
      <text
        x="454"
        y="33"
        fill="#ffffff"
        fontSize="12.5"
        fontWeight="700"
        textAnchor="middle"
        fontFamily="inherit"
      >
        End Tracking
      </text>

      {/* Map */}
      <g clipPath="url(#ps-map-clip)">
        <rect x="0" y="56" width="520" height="264" fill="#0b2140" />
        <path
          d="M-10 250 C 120 230, 190 170, 300 160 S 470 120, 540 90"
          stroke="#1d3d66"
          strokeWidth="16"
          fill="none"
        />
        <path d="M60 56 L 140 330" stroke="#183659" strokeWidth="10" fill="none" />
        <path d="M330 56 L 380 330" stroke="#183659" strokeWidth="8" fill="none" />
        <path d="M-10 120 L 540 150" stroke="#183659" strokeWidth="6" fill="none" />
        <path d="M-10 300 L 540 270" stroke="#183659" strokeWidth="6" fill="none" />
        <path d="M420 320 C 440 280, 470 260, 540 250 L 540 330 Z" fill="#0f3357" />
        {/* Trail */}
        <g fill="#ff8a9b">
          <circle cx="150" cy="262" r="3" opacity="0.35" />
          <circle cx="180" cy="246" r="3" opacity="0.45" />
          <circle cx="208" cy="228" r="3" opacity="0.55" />
          <circle cx="232" cy="210" r="3" opacity="0.7" />
          <circle cx="252" cy="194" r="3" opacity="0.85" />
        </g>
        {/* Accuracy circle and pulse */}
        <circle
          cx="272"
          cy="176"
          r="58"
          fill="rgba(200,16,46,0.14)"
          stroke="#ff8a9b"
          strokeDasharray="5 5"
        />
        <circle className={classes.pulse} cx="272" cy="176" r="40" fill="rgba(255,138,155,0.35)" />
        <circle
          className={classes.pulseLate}
          cx="272"
          cy="176"
          r="40"
          fill="rgba(255,138,155,0.35)"
        />
        <path
          d="M272 140c-11 0-19.5 8.4-19.5 19.2 0 13.9 19.5 33.8 19.5 33.8s19.5-19.9 19.5-33.8c0-10.8-8.5-19.2-19.5-19.2Z"
          fill="#c8102e"
          stroke="#ffffff"
          strokeWidth="2.5"
        />
        <circle cx="272" cy="159" r="6.5" fill="#ffffff" />
      </g>

      {/* Status panel */}
      <g fontFamily="inherit">
        <text x="24" y="352" fill="#a9b8cf" fontSize="12" fontWeight="600" letterSpacing="1.2">
          LAST LOCATION
        </text>
        <text x="24" y="378" fill="#ffffff" fontSize="17" fontWeight="700">
          39.52961, −119.81380
        </text>
        <text x="24" y="402" fill="#d5deeb" fontSize="13">
          ±8 m · shared by caller · 2 s ago
        </text>

        <rect x="330" y="340" width="166" height="30" rx="15" fill="rgba(46,204,113,0.14)" />
        <circle cx="348" cy="355" r="5" fill="#2ecc71" />
        <text x="360" y="360" fill="#c9f5da" fontSize="13" fontWeight="600">
          Caller connected
        </text>
        <rect x="330" y="378" width="166" height="30" rx="15" fill="rgba(46,204,113,0.14)" />
        <circle cx="348" cy="393" r="5" fill="#2ecc71" />
        <text x="360" y="398" fill="#c9f5da" fontSize="13" fontWeight="600">
          Sharing location
        </text>
      </g>
    </svg>
  );
}
