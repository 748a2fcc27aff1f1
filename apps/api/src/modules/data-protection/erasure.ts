// Erasing a person (POPIA s. 24; docs/decisions/050-account-deletion-retention-breaches.md, 061).
// An account deletion erases the person's own rows by name (their profile, documents, sessions,
// links, notifications, mail, the text of their messages); then this sweep rewrites any remaining
// mention of the person's name, email, phone number, ID number, bank account or address (a host's
// message "Hi Sipho Dlamini", a notification or an email to someone else naming them, an audit
// row's before value) in the rows the registry reaches from them (erasure.registry.ts: each table
// and column where a mention can be written, and how its rows are found from the person through
// indexed columns), so the erasure's cost follows the person's rows, not the size of every table.
// This is the one writer that touches other modules' tables, on purpose. Kept records (the ledger,
// trip records, disputes, reports) allow it for their text only, inside an erasure (migration
// 0027: karoo.erasure).
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { MENTION_TABLES, type PersonReach } from './erasure.registry';

/** What is looked for, and what replaces it. */
export interface Needle {
  /** A PostgreSQL regular expression (ARE), matched case-insensitively. */
  pattern: string;
  replacement: string;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Digits, each allowed a space, dot or dash before the next (how numbers are written by hand). */
const spacedDigits = (digits: string) => digits.split('').join('[\\s.-]?');

/** A phone number in the forms people write it: +27 82 555 0100, 082 555 0100, 0825550100. */
export function phonePattern(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 7) return null;
  if (digits.startsWith('27') && digits.length >= 11) return `(\\+?27[\\s.-]?|0)${spacedDigits(digits.slice(2))}`;
  if (digits.startsWith('0') && digits.length >= 10) return `(\\+?27[\\s.-]?|0)${spacedDigits(digits.slice(1))}`;
  return spacedDigits(digits);
}

export interface Person {
  full_name: string;
  email: string;
  username: string;
  phone_number: string | null;
  id_number: string | null;
  bank_account_number: string | null;
  address: string | null;
}

/** Profile fields whose earlier values (an audited edit's before and after) identify the person too. */
export const PERSONAL_FIELDS = ['full_name', 'email', 'username', 'phone_number', 'id_number', 'bank_account_number', 'address'] as const;

/**
 * The values the person's profile held before (an administrator's audited edits keep them), each
 * as a Person to look for as well: an old address in an audit row is as personal as the current one.
 */
export async function earlierIdentities(db: Db, userId: string): Promise<Person[]> {
  const rows = await db.selectFrom('audit_log').select(['before', 'after']).where('target_type', '=', 'user').where('target_id', '=', userId).execute();
  const people: Person[] = [];
  for (const row of rows) {
    for (const values of [row.before, row.after]) {
      if (!values) continue;
      const pick = (key: string) => (typeof values[key] === 'string' ? (values[key] as string) : null);
      if (!PERSONAL_FIELDS.some((key) => pick(key))) continue;
      people.push({
        full_name: pick('full_name') ?? '',
        email: pick('email') ?? '',
        username: pick('username') ?? '',
        phone_number: pick('phone_number'),
        id_number: pick('id_number'),
        bank_account_number: pick('bank_account_number')?.startsWith('…') ? null : pick('bank_account_number'),
        address: pick('address'),
      });
    }
  }
  return people;
}

/** The person's identifying values as patterns; too short a value (a one-word, three-letter name) is left to the explicit erasure. */
export function needlesFor(person: Person, anonymousUsername: string): Needle[] {
  const needles: Needle[] = [];
  const name = person.full_name.trim();
  if (name.length >= 5 || name.split(/\s+/).length >= 2) {
    needles.push({ pattern: name.split(/\s+/).map(escapeRegex).join('\\s+'), replacement: 'Former member' });
  }
  if (person.email.trim().length >= 3) needles.push({ pattern: escapeRegex(person.email.trim()), replacement: '[email removed]' });
  if (person.username.length >= 4) needles.push({ pattern: `\\m${escapeRegex(person.username)}\\M`, replacement: anonymousUsername });
  const phone = person.phone_number ? phonePattern(person.phone_number) : null;
  if (phone) needles.push({ pattern: phone, replacement: '[phone number removed]' });
  const id = person.id_number?.replace(/\D/g, '') ?? '';
  if (id.length >= 6) needles.push({ pattern: spacedDigits(id), replacement: '[ID number removed]' });
  const bank = person.bank_account_number?.replace(/\D/g, '') ?? '';
  if (bank.length >= 6) needles.push({ pattern: spacedDigits(bank), replacement: '[bank account removed]' });
  const address = person.address?.trim() ?? '';
  if (address.length >= 8) needles.push({ pattern: address.split(/\s+/).map(escapeRegex).join('\\s+'), replacement: '[address removed]' });
  return needles;
}

export interface TextColumn {
  table: string;
  column: string;
  /** 'text' for text and varchar; JSON columns are searched and rewritten as their text. */
  type: 'text' | 'json' | 'jsonb';
}

/** Every text, varchar and JSON column of the app's tables that may be written (generated columns follow their sources): what the registry must account for. */
export async function textColumns(db: Db): Promise<TextColumn[]> {
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    SELECT c.table_name, c.column_name, c.data_type
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = current_schema()
      AND c.data_type IN ('text', 'character varying', 'character', 'jsonb', 'json')
      AND c.is_generated = 'NEVER'
      AND c.table_name NOT LIKE 'kysely_%'
    ORDER BY c.table_name, c.ordinal_position
  `.execute(db);
  return rows.map((r) => ({ table: r.table_name, column: r.column_name, type: r.data_type === 'jsonb' || r.data_type === 'json' ? r.data_type : 'text' }));
}

/**
 * Rewrites every mention of the needles in the rows the registry reaches from the person
 * (erasure.registry.ts), one UPDATE per table, inside the caller's transaction (after
 * `beginErasure`); a table marked 'delete' loses the rows reached instead. Only the tables present
 * are touched (the registry test holds the list to the schema). Returns the rows changed per table.
 */
export async function sweepMentions(db: Db, needles: readonly Needle[], reach: PersonReach): Promise<Record<string, number>> {
  if (needles.length === 0) return {};
  const any = needles.map((n) => `(${n.pattern})`).join('|');
  const types = new Map((await textColumns(db)).map((c) => [`${c.table}.${c.column}`, c.type]));
  const changed: Record<string, number> = {};
  for (const entry of MENTION_TABLES) {
    const rows = entry.rowsOf(reach);
    const columns = entry.columns.flatMap((column) => {
      const type = types.get(`${entry.table}.${column}`);
      return type ? [{ table: entry.table, column, type }] : [];
    });
    if (!rows || columns.length === 0) continue;
    const table = sql`${sql.table(entry.table)} AS t`;
    if (entry.erase === 'delete') {
      const result = await sql`DELETE FROM ${table} WHERE ${rows}`.execute(db);
      const n = Number(result.numAffectedRows ?? 0n);
      if (n > 0) changed[entry.table] = n;
      continue;
    }
    const asText = (c: TextColumn) => (c.type === 'text' ? sql.ref(`t.${c.column}`) : sql`t.${sql.ref(c.column)}::text`);
    const rewritten = (c: TextColumn) => {
      let value = asText(c);
      for (const n of needles) value = sql`regexp_replace(${value}, ${n.pattern}, ${n.replacement}, 'gi')`;
      return c.type === 'text' ? value : sql`(${value})::${sql.raw(c.type)}`;
    };
    const sets = columns.map((c) => sql`${sql.ref(c.column)} = CASE WHEN ${asText(c)} ~* ${any} THEN ${rewritten(c)} ELSE t.${sql.ref(c.column)} END`);
    const mentions = columns.map((c) => sql`${asText(c)} ~* ${any}`);
    const result = await sql`UPDATE ${table} SET ${sql.join(sets)} WHERE ${rows} AND (${sql.join(mentions, sql` OR `)})`.execute(db);
    const n = Number(result.numAffectedRows ?? 0n);
    if (n > 0) changed[entry.table] = n;
  }
  return changed;
}

/** Marks the transaction an erasure: the kept records' triggers then allow their text, and only it, to change (migration 0027). */
export async function beginErasure(db: Db): Promise<void> {
  await sql`SELECT set_config('karoo.erasure', 'on', true)`.execute(db);
}

/** Ends the erasure mark within the transaction (anything after it is held to the usual rules again). */
export async function endErasure(db: Db): Promise<void> {
  await sql`SELECT set_config('karoo.erasure', 'off', true)`.execute(db);
}
