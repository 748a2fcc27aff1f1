// SQL for the single settings row (id 1).
import type { Db } from '../../db/connection';

export async function readSettingsData(db: Db): Promise<Record<string, unknown> | null> {
  const row = await db.selectFrom('settings').select('data').where('id', '=', 1).executeTakeFirst();
  return row?.data ?? null;
}

export async function writeSettingsData(db: Db, data: object, updatedBy: string | null, now: Date): Promise<void> {
  await db
    .insertInto('settings')
    .values({ id: 1, data: JSON.stringify(data), updated_by: updatedBy, updated_at: now })
    .onConflict((oc) => oc.column('id').doUpdateSet({ data: JSON.stringify(data), updated_by: updatedBy, updated_at: now }))
    .execute();
}
