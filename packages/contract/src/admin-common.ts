import { z } from 'zod';

/**
 * A member's role on a team (SPEC.md §6 "Team user role", whose values SPEC leaves open):
 * `admin` manages the team's members, agencies, call lists and links ("Team admin" on screen);
 * `member` locates callers ("Dispatcher" on screen). The same two values as `Team.role`.
 */
export const TeamRole = z.enum(['admin', 'member']);
export type TeamRole = z.infer<typeof TeamRole>;

/** How the screens name each role. */
export const teamRoleLabels: Record<TeamRole, string> = {
  admin: 'Team admin',
  member: 'Dispatcher',
};

export const pageLimits = { defaultPageSize: 25, maxPageSize: 100 } as const;

/**
 * The paging every admin list takes as a query: 1-based `page`, `pageSize` up to 100. Lists
 * have a stable order (their sort key, then id), so a row is never on two pages.
 */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(pageLimits.maxPageSize)
    .default(pageLimits.defaultPageSize),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** One page of a list, with the total number of rows that match. */
export function pageOf<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  });
}
