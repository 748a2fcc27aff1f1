// What services need, built once per app: the database, mail, files, the clock and settings.
import type { Db } from './db/connection';
import type { Env } from './env';
import type { Mailer } from './lib/mail';
import type { Storage } from './lib/storage';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface AppContext {
  db: Db;
  env: Env;
  mailer: Mailer;
  privateFiles: Storage;
  clock: Clock;
}
