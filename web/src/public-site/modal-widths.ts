/** SPEC.md §2 "Modals": every modal is one of these two widths (px). */
export const modalWidths = { narrow: 415, wide: 700 } as const;
