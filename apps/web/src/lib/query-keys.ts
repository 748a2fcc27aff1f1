// Every query key of data that more than one screen reads, in one place (docs/decisions/014). A
// key names one fetcher and one shape: two hooks that share a key must be the same hook, in
// lib/queries/. Keys start with their area, so a write invalidates a whole area with `all`.
// Keys only one feature uses (a reset token, a car's availability) may stay in that feature.

import type { BookingScopeQuery } from '@karoo/shared';

/** Whose bookings a list or stats covers: `mine` = where the viewer is the renter or the car owner. */
export type BookingScope = NonNullable<BookingScopeQuery['scope']>;

/** The prefix of every browse list: `list` adds its filters, `lists` refreshes them all. */
const CAR_LISTS = ['cars', 'list'] as const;

export const queryKeys = {
  settings: ['settings'] as const,
  bookings: {
    all: ['bookings'] as const,
    list: (scope: BookingScope) => ['bookings', 'list', scope] as const,
    stats: (scope: BookingScope) => ['bookings', 'stats', scope] as const,
    /** Stats of one side of the viewer's bookings: requests on their cars (owner) or their trips (renter). */
    statsAs: (as: NonNullable<BookingScopeQuery['as']>) => ['bookings', 'stats', 'as', as] as const,
    /** What cancelling one paid trip now would do, for one set of choices (a no-show, a refund). */
    cancellation: (id: string, params: Record<string, string | number | undefined>) => ['bookings', 'cancellation', id, params] as const,
  },
  /** Trip charges (decision 065): My Bookings shows them, and the checkout of a claim's payment link refreshes them. */
  claims: {
    all: ['claims'] as const,
    booking: (bookingId: string) => ['claims', 'booking', bookingId] as const,
  },
  earnings: {
    all: ['earnings'] as const,
    summary: () => ['earnings', 'summary'] as const,
    profit: (username: string) => ['earnings', 'profit', username] as const,
  },
  payouts: {
    /** The signed-in host's bank account, schedule, next payout and transfers. */
    host: () => ['payouts', 'host'] as const,
    banks: () => ['payouts', 'banks'] as const,
    /** Every transfer, the balance the next run needs and paused hosts (admins). */
    admin: () => ['payouts', 'admin'] as const,
  },
  cars: {
    all: ['cars'] as const,
    /** Every browse list, whatever its filters: what a new booking makes stale. */
    lists: () => CAR_LISTS,
    list: (params: Record<string, string | number | undefined>) => [...CAR_LISTS, params] as const,
    /** Every car's details (the server renders them as a stranger reads them, decision 055). */
    details: () => ['cars', 'detail'] as const,
    detail: (idOrUsername: string | undefined) => ['cars', 'detail', idOrUsername] as const,
    /** The browse map's clusters of one view (its filters, bbox and zoom). */
    map: (params: Record<string, string | number | undefined>) => ['cars', 'map', params] as const,
    /** How many cars are listed (the landing page and the renter's dashboard). */
    count: () => ['cars', 'count'] as const,
    /** Every car of one owner, whatever its status. */
    owner: (username: string | undefined) => ['cars', 'owner', username] as const,
  },
  reviews: {
    all: ['reviews'] as const,
    car: (carUsername: string | undefined) => ['reviews', 'car', carUsername] as const,
    byUser: (username: string) => ['reviews', 'by-user', username] as const,
    /** Average, count and spread: one car's, or the whole platform's without a car. */
    stats: (carUsername?: string) => ['reviews', 'stats', carUsername ?? 'platform'] as const,
    /** A party's view of one booking's two reviews (decision 043). */
    booking: (bookingId: string) => ['reviews', 'booking', bookingId] as const,
    /** A renter's record: rating from hosts and completed trips. */
    renter: (username: string) => ['reviews', 'renter', username] as const,
  },
  /** The signed-in person's notifications (the bell); the live stream refreshes them (decision 083). */
  notifications: {
    all: ['notifications'] as const,
    of: (username: string | undefined) => ['notifications', username] as const,
  },
  messages: {
    all: ['messages'] as const,
    /** One booking's conversation; an administrator's reading carries the reason it was opened for. */
    conversation: (bookingId: string, reason?: string) => ['messages', 'conversation', bookingId, reason ?? null] as const,
    /** Every reading of one booking's conversation (a participant's, an administrator's). */
    conversationsOf: (bookingId: string) => ['messages', 'conversation', bookingId] as const,
    /** Unread messages per booking and in all, for My Bookings and the bell. */
    unread: () => ['messages', 'unread'] as const,
  },
  admin: {
    all: ['admin'] as const,
    /** The admin Dashboard: counters (the Cars tab's too), newest users and the debug box, in one answer. */
    overview: () => ['admin', 'overview'] as const,
    /** The audit log, one page of one filter. */
    audit: (filters: Record<string, string | number | undefined>) => ['admin', 'audit', filters] as const,
    /** Every page of the audit log, for Refresh. */
    auditAll: () => ['admin', 'audit'] as const,
    /** The Users tab, one page of one search and filter. */
    users: (filters: Record<string, string | number | undefined>) => ['admin', 'users', filters] as const,
    /** Every page of the Users tab, for Refresh and after a change. */
    usersAll: () => ['admin', 'users'] as const,
    /** The Cars tab, one page of one search, filter and sort (GET /admin/cars: unverified cars included). */
    cars: (filters: Record<string, string | number | undefined>) => ['admin', 'cars', 'list', filters] as const,
    /** Every page of the Cars tab, for Refresh and after a change (its counters are the overview's). */
    carsAll: () => ['admin', 'cars'] as const,
    /** The Bookings tab, one page of one search and status filter. */
    bookings: (filters: Record<string, string | number | undefined>) => ['admin', 'bookings', 'list', filters] as const,
    /** The Bookings tab's counters: the platform's bookings by status (GET /booking/getStats). */
    bookingStats: () => ['admin', 'bookings', 'stats'] as const,
    /** Every page and the counters of the Bookings tab, for Refresh and after a change. */
    bookingsAll: () => ['admin', 'bookings'] as const,
    /** The Finance tab, one period (Johannesburg dates, empty = all time). */
    finance: (period: { from?: string; to?: string }) => ['admin', 'finance', period] as const,
    /** Every period of the Finance tab, for Refresh and after a payout. */
    financeAll: () => ['admin', 'finance'] as const,
    /** The Analytics tab, one period (Johannesburg dates, empty = the last 12 weeks). */
    analytics: (period: { from?: string; to?: string }) => ['admin', 'analytics', period] as const,
    /** Every period of the Analytics tab, for Refresh. */
    analyticsAll: () => ['admin', 'analytics'] as const,
    /** Mail in one delivery status (the Dashboard's Failed mail: 'failed'). */
    mail: (status: string) => ['admin', 'mail', status] as const,
    /** Every mail list, for Refresh and after a retry. */
    mailAll: () => ['admin', 'mail'] as const,
    /** Refunds in one state (the Finance tab's Refunds needing attention: 'failed'). */
    refunds: (state: 'pending' | 'failed') => ['admin', 'refunds', state] as const,
    /** Every refund list, for Refresh and after a retry or a cancellation. */
    refundsAll: () => ['admin', 'refunds'] as const,
    /** Security compromises recorded under POPIA s. 22 (Settings tab; decision 050). */
    breaches: () => ['admin', 'breaches'] as const,
    /** Open requests to correct a verified detail (Users tab; decision 049). */
    corrections: () => ['admin', 'corrections', 'open'] as const,
  },
} as const;
