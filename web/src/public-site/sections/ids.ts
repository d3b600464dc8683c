/** The landing page's section ids: navigation targets and URL fragments. */
export const sectionIds = {
  top: 'top',
  partners: 'partners',
  statistics: 'statistics',
  platform: 'platform',
  learn: 'learn',
  bookDemo: 'book-demo',
} as const;
