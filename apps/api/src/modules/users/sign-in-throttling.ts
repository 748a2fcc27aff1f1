// The numbers and pure rules of sign-in and reset throttling (docs/decisions/023-sign-in-throttling.md,
// 030-proxies-and-sign-in-links.md; NIST SP 800-63B 5.2.2). auth.service.ts applies them;
// users.repository.ts counts atomically.
import { isIPv4, isIPv6 } from 'node:net';
import { SIGN_IN_LINK_TTL_MS } from '@karoo/shared';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/** A failure counter with free failures, then a wait that doubles with each further failure. */
export interface BackoffRule {
  /** Failures that cost nothing; the wait starts after this many. */
  free: number;
  /** The first wait, after failure number `free`. */
  firstWaitMs: number;
  /** The longest wait: it never grows past this, so nobody is ever locked out. */
  maxWaitMs: number;
  /** A count restarts this long after its first failure. */
  windowMs: number;
}

/**
 * One account from one address: a few typos are free, then 15 s, 30 s, 1 min ... up to 15 min
 * between attempts. A success from that address forgets them (NIST: "disregard any previous failed
 * attempts for that user from the same IP address"). About 100 guesses a day at most.
 */
export const PAIR_RULE: BackoffRule = { free: 5, firstWaitMs: 15 * SECOND_MS, maxWaitMs: 15 * MINUTE_MS, windowMs: 24 * HOUR_MS };

/**
 * One address, whatever the account (credential stuffing, password spraying): generous for a shared
 * network (30 failures an hour), then the same doubling wait for every sign-in from it. A success
 * does not forget them: a stuffing run succeeds now and then.
 */
export const ADDRESS_RULE: BackoffRule = { free: 30, firstWaitMs: 15 * SECOND_MS, maxWaitMs: 15 * MINUTE_MS, windowMs: HOUR_MS };

/**
 * One account, whatever the address (a guessing run spread over many addresses): past 20 failures
 * in a day, an address that has already failed on the account waits this rule's wait after each
 * further failure (when it is longer than its own). An address with no failures is never held back,
 * so the owner's right password on a clean device works at the first try.
 */
export const ACCOUNT_RULE: BackoffRule = { free: 20, firstWaitMs: 15 * SECOND_MS, maxWaitMs: 15 * MINUTE_MS, windowMs: 24 * HOUR_MS };

/**
 * NIST SP 800-63B 5.2.2: "no more than 100 consecutive failed authentication attempts on a single
 * subscriber account". Past this many wrong passwords in a row, from any addresses, no password is
 * checked for the account (or typed unknown name) until its owner signs in: a success, a sign-in
 * link or a password reset starts the count again. The rules above slow guessing; this bounds it.
 */
export const ACCOUNT_CAP = 100;

/** The wait after the `failures`-th failure of a window: none while free, then doubling to the cap. */
export function waitAfter(rule: BackoffRule, failures: number): number {
  if (failures < rule.free) return 0;
  const doublings = Math.min(failures - rule.free, 30);
  return Math.min(rule.maxWaitMs, rule.firstWaitMs * 2 ** doublings);
}

/** Reset mails to one email within any hour (requests past it answer the same and mail nothing). */
export const RESET_MAILS_PER_EMAIL = 3;
/** Reset requests granted to one address within any hour, whatever the email. */
export const RESET_MAILS_PER_ADDRESS = 10;
export const RESET_MAIL_WINDOW_MS = HOUR_MS;

/**
 * Sign-in links to one account within any 15 minutes. The window is the link's own lifetime: when a
 * request is refused, the links mailed in the window are all still usable in the owner's inbox, so
 * someone asking in her name can fill her inbox a little but never leave her without a working link.
 */
export const SIGN_IN_LINKS_PER_ACCOUNT = 3;
export const SIGN_IN_LINK_WINDOW_MS = SIGN_IN_LINK_TTL_MS;
/** Sign-in link requests granted to one (public) address within any hour, whatever the account. */
export const SIGN_IN_LINK_REQUESTS_PER_ADDRESS = 10;
export const SIGN_IN_LINK_ADDRESS_WINDOW_MS = HOUR_MS;

/** The longest window of any mail request throttle (reset and sign-in links share the table). */
export const LONGEST_MAIL_REQUEST_WINDOW_MS = Math.max(RESET_MAIL_WINDOW_MS, SIGN_IN_LINK_WINDOW_MS, SIGN_IN_LINK_ADDRESS_WINDOW_MS);

/** The longest window of any throttle: past it (and its wait) a row counts nothing. */
export const LONGEST_THROTTLE_WINDOW_MS = Math.max(PAIR_RULE.windowMs, ADDRESS_RULE.windowMs, ACCOUNT_RULE.windowMs, RESET_MAIL_WINDOW_MS);

/**
 * The source a throttle counts by: an IPv4 address as is (also when written IPv4-mapped, as Node
 * reports it on a dual-stack socket), an IPv6 address by its /64 prefix, since one subscriber is
 * usually handed a whole /64 and could otherwise take a fresh address per attempt.
 */
export function sourceOf(ip: string | null | undefined): string {
  const address = (ip ?? '').trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
  return 'unknown';
}

/** The eight groups of an IPv6 address, without leading zeros (the zone and embedded IPv4 tolerated). */
function expandIPv6(address: string): string[] {
  const bare = address.split('%')[0]!;
  const [head = '', tail] = bare.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array.from({ length: missing }, () => '0'), ...right].map((g) => (g.includes('.') ? g : g.replace(/^0+(?=.)/, '')));
}

/**
 * Whether a source is a loopback, private or link-local address (or unknown). Such a source is
 * not capped per address: it is what every request seems to come from behind a reverse proxy that
 * TRUST_PROXY does not name, and there a per-address cap would be a site-wide lockout. The
 * per-account and (account, address) rules still apply to it.
 */
export function isPrivateSource(source: string): boolean {
  if (source === 'unknown') return true;
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(source);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  const first = parseInt(source.split(':')[0] || '0', 16);
  // ::1 (its /64 is 0:0:0:0), fc00::/7 unique local, fe80::/10 link-local.
  return source.startsWith('0:0:0:0::') || (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

/** "15 seconds", "1 minute", "15 minutes": a wait as the 429 message says it (minutes rounded up). */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / SECOND_MS));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
