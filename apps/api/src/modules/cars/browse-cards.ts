// The browse cards' records kept between answers (docs/decisions/054-browse-card-records-kept.md).
// A public browse page from the index read its twelve cards' records from the database on every
// request: at 100,000 cars that statement (a join to the owner, the current renter's subquery, two
// JSON columns) was the largest part of an answer after the index's own search. The same cars fill
// most first pages, so each instance keeps the records it read, and forgets a car the moment its
// index reloads it: the index reloads every car whose row, bookings, blocks or owner's name changed
// (the notes of migrations 0016, 0028 and 0031), so a kept record is as fresh as the index itself.
import type { Db } from '../../db/connection';
import { findCarRecordsInOrder, type CarCardRecord } from './cars.repository';
import { isListedCar } from '@karoo/shared';

/** About 1.5 KB a record: some 15 MB at most for an instance. */
const KEEP_AT_MOST = 10_000;

interface Kept {
  record: CarCardRecord;
  /** The day the record was read for (whether the car is on a rental depends on it). */
  today: string;
}

export class CardRecords {
  private readonly kept = new Map<string, Kept>();
  /** Counts forgets: a read that began before one is not kept (its rows may predate the change). */
  private generation = 0;

  constructor(private readonly limit = KEEP_AT_MOST) {}

  get size(): number {
    return this.kept.size;
  }

  /** The cars whose rows changed, or (no ids) every car: their records are read again when next shown. */
  forget(ids?: Iterable<string>): void {
    this.generation += 1;
    if (!ids) this.kept.clear();
    else for (const id of ids) this.kept.delete(id);
  }

  /**
   * The card records of `ids`, in their order, as `findCarRecordsInOrder` reads them for `today`:
   * those kept, and the others from the database in one statement. Only listed cars' records are
   * kept (the caller checks the rest, as the index may not have heard of a change yet).
   */
  async read(db: Db, ids: readonly string[], today: string): Promise<CarCardRecord[]> {
    const found = new Map<string, CarCardRecord>();
    const missing: string[] = [];
    for (const id of ids) {
      const kept = this.kept.get(id);
      if (kept && kept.today === today) {
        found.set(id, kept.record);
        // Shown again: the last to go.
        this.kept.delete(id);
        this.kept.set(id, kept);
      } else missing.push(id);
    }
    if (missing.length) {
      const generation = this.generation;
      const rows = await findCarRecordsInOrder<CarCardRecord>(db, missing, today, 'card');
      const keep = generation === this.generation;
      for (const row of rows) {
        found.set(row.id, row);
        if (keep && isListedCar(row)) this.keep(row, today);
      }
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  private keep(record: CarCardRecord, today: string): void {
    this.kept.delete(record.id);
    this.kept.set(record.id, { record, today });
    // The least recently shown goes first (a Map iterates in the order of insertion).
    if (this.kept.size > this.limit) this.kept.delete(this.kept.keys().next().value!);
  }
}
