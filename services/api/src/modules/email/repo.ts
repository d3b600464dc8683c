import type { Database } from '@locus/db';
import type { RenderedEmail } from './templates';

/** Writes the e-mail's row; the job that sends it carries the returned id. */
export async function insertEmail(db: Database, email: RenderedEmail): Promise<string> {
  const row = await db
    .insertInto('emails')
    .values({
      to_address: email.to,
      subject: email.subject,
      text: email.text,
      template: email.template,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
