// Migrations in order. Each is a file; add new ones at the end, never edit a landed one.
import type { Migration } from 'kysely';
import * as m0001 from './0001-accounts';
import * as m0002 from './0002-vehicles';
import * as m0003 from './0003-bookings-money';
import * as m0004 from './0004-hostile-input';
import * as m0005 from './0005-plates-and-notification-order';
import * as m0006 from './0006-booking-expiry-moment';
import * as m0007 from './0007-stored-car-statuses';
import * as m0008 from './0008-option-fees-in-cents';
import * as m0009 from './0009-audit-log';
import * as m0010 from './0010-admin-list-indexes';
import * as m0011 from './0011-browse-at-scale';
import * as m0012 from './0012-browse-covering-indexes';
import * as m0013 from './0013-sign-in-throttling';
import * as m0014 from './0014-one-charge-per-booking';
import * as m0015 from './0015-mail-outbox-worker';
import * as m0016 from './0016-browse-index-changes';
import * as m0017 from './0017-plate-search';
import * as m0018 from './0018-final-payouts-and-money-codes';
import * as m0019 from './0019-sign-in-links';
import * as m0020 from './0020-ledger';
import * as m0021 from './0021-booking-messages';
import * as m0022 from './0022-trip-records';
import * as m0023 from './0023-reviews-both-ways';
import * as m0024 from './0024-message-report-resolution';
import * as m0025 from './0025-car-photo-variants';
import * as m0026 from './0026-privacy-rights';
import * as m0027 from './0027-deletion-retention-breaches';
import * as m0028 from './0028-time-ranges-and-blocks';
import * as m0030 from './0030-trip-rules-and-discounts';
import * as m0031 from './0031-browse-owner-names';
import * as m0033 from './0033-issued-documents';
import * as m0034 from './0034-append-only-truncate';
import * as m0035 from './0035-erasure-and-finance-at-scale';
import * as m0036 from './0036-deposits-and-trip-charges';
import * as m0038 from './0038-payouts-by-themselves';
import * as m0039 from './0039-traffic-fines-and-fee-waivers';
import * as m0040 from './0040-claim-payment-links';
import * as m0041 from './0041-instant-booking-by-car';
import * as m0042 from './0042-trip-changes';
import * as m0043 from './0043-notice-reach';
import * as m0044 from './0044-live-events';
import * as m0045 from './0045-booking-reminders';

export const migrations: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-vehicles': m0002,
  '0003-bookings-money': m0003,
  '0004-hostile-input': m0004,
  '0005-plates-and-notification-order': m0005,
  '0006-booking-expiry-moment': m0006,
  '0007-stored-car-statuses': m0007,
  '0008-option-fees-in-cents': m0008,
  '0009-audit-log': m0009,
  '0010-admin-list-indexes': m0010,
  '0011-browse-at-scale': m0011,
  '0012-browse-covering-indexes': m0012,
  '0013-sign-in-throttling': m0013,
  '0014-one-charge-per-booking': m0014,
  '0015-mail-outbox-worker': m0015,
  '0016-browse-index-changes': m0016,
  '0017-plate-search': m0017,
  '0018-final-payouts-and-money-codes': m0018,
  '0019-sign-in-links': m0019,
  '0020-ledger': m0020,
  '0021-booking-messages': m0021,
  '0022-trip-records': m0022,
  '0023-reviews-both-ways': m0023,
  '0024-message-report-resolution': m0024,
  '0025-car-photo-variants': m0025,
  '0026-privacy-rights': m0026,
  '0027-deletion-retention-breaches': m0027,
  '0028-time-ranges-and-blocks': m0028,
  '0030-trip-rules-and-discounts': m0030,
  '0031-browse-owner-names': m0031,
  '0033-issued-documents': m0033,
  '0034-append-only-truncate': m0034,
  '0035-erasure-and-finance-at-scale': m0035,
  '0036-deposits-and-trip-charges': m0036,
  '0038-payouts-by-themselves': m0038,
  '0039-traffic-fines-and-fee-waivers': m0039,
  '0040-claim-payment-links': m0040,
  '0041-instant-booking-by-car': m0041,
  '0042-trip-changes': m0042,
  '0043-notice-reach': m0043,
  '0044-live-events': m0044,
  '0045-booking-reminders': m0045,
};
