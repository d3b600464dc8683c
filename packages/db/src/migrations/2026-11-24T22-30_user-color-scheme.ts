import { sql, type Kysely } from 'kysely';

// users.color_scheme: the console's theme each user chose in the user menu ('auto' follows the
// system's prefers-color-scheme). Kept on the user, not in the browser, so that a dispatcher's
// dark theme for night shifts follows them to whichever console they sign in to. The values are
// the contract's ColorScheme.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table users
      add column color_scheme text not null default 'auto'
        constraint users_color_scheme_check check (color_scheme in ('auto', 'light', 'dark'))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column color_scheme`.execute(db);
}
