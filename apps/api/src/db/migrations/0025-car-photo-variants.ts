// Car photos in several widths and formats (issue 22, docs/decisions/045-photo-sizes.md). Each car
// keeps what was made of each of its photos, by the photo's storage key (cars/<id>/<name>.jpg):
//   { "<key>": { "width": 2560, "height": 1714, "variants": [[360, 241], [720, 482], [1280, 857]] } }
// The files are named from the key and the width (lib/photo-variants.ts), so only the sizes are
// stored. A photo with no entry is not converted yet (its car answers `variants: []`); one that
// could not be decoded is { "error": "..." } so the conversion job does not try it again.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // A constant default: PostgreSQL adds the column without rewriting the table.
  await sql`ALTER TABLE cars ADD COLUMN photo_variants jsonb NOT NULL DEFAULT '{}'::jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE cars DROP COLUMN IF EXISTS photo_variants`.execute(db);
}
