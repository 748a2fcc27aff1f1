// The browse cards say who hosts each car ("Hosted by"), and an instance keeps the cards' records
// between answers, forgetting a car when its browse index reloads it (decision 054). A host who
// changes their name, or whose account is erased (decision 050 anonymises the name), changes no
// row of their cars: this trigger notes each of their cars, so every instance reloads them. (Only
// cars not deleted: no index holds the others, and the owner index, cars_owner_idx, covers just them.)
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE FUNCTION note_browse_owner_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO browse_changes (car_id) SELECT id FROM cars WHERE owner_id = NEW.id AND deleted_at IS NULL;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER users_browse_change AFTER UPDATE OF full_name ON users
    FOR EACH ROW WHEN (OLD.full_name IS DISTINCT FROM NEW.full_name) EXECUTE FUNCTION note_browse_owner_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS users_browse_change ON users`.execute(db);
  await sql`DROP FUNCTION IF EXISTS note_browse_owner_change()`.execute(db);
}
