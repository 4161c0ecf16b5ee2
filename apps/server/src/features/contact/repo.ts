import type { Db } from '../../db/database.js';

export async function insertContactMessage(
  db: Db,
  m: {
    firstName: string;
    lastName: string;
    email: string;
    subject: string;
    message: string;
    userId: number | null;
    ip: string | null;
  },
) {
  const row = await db
    .insertInto('contact_messages')
    .values({
      first_name: m.firstName,
      last_name: m.lastName,
      email: m.email,
      subject: m.subject,
      message: m.message,
      user_id: m.userId,
      ip: m.ip,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function setMailStatus(db: Db, id: number, status: 'sent' | 'failed', error: string | null) {
  await db
    .updateTable('contact_messages')
    .set({ mail_status: status, mail_error: error })
    .where('id', '=', id)
    .execute();
}
