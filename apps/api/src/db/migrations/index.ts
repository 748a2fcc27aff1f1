// Migrations in order. Each is a file; add new ones at the end, never edit a landed one.
import type { Migration } from 'kysely';
import * as m0001 from './0001-accounts';

export const migrations: Record<string, Migration> = {
  '0001-accounts': m0001,
};
