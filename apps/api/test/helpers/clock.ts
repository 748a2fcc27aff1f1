// A clock the tests move by hand: frozen at creation, then set or advanced explicitly, so
// expiries (sessions, reset links, throttles) are checked at exact instants.
import type { Clock } from '../../src/context';

export class TestClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(date: Date | string | number): void {
    this.current = new Date(date).getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
