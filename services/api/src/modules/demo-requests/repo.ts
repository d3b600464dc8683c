import type { DemoRequest } from '@locus/contract';
import type { Database } from '@locus/db';

export async function insertDemoRequest(
  db: Database,
  request: {
    firstName: string;
    lastName: string;
    email: string;
    phoneNumber: string;
    companyName: string;
    comment: string | null;
  },
): Promise<string> {
  const row = await db
    .insertInto('demo_requests')
    .values({
      first_name: request.firstName,
      last_name: request.lastName,
      email: request.email,
      phone_number: request.phoneNumber,
      company_name: request.companyName,
      comment: request.comment,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function listDemoRequests(db: Database, limit: number): Promise<DemoRequest[]> {
  const rows = await db
    .selectFrom('demo_requests')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phoneNumber: row.phone_number,
    companyName: row.company_name,
    comment: row.comment,
    createdAt: row.created_at.toISOString(),
  }));
}
