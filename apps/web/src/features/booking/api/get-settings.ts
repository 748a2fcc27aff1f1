// The platform settings the booking panel reads (fees, maxRentalDays): the one settings query of
// lib/queries/settings, the wizard's too, so both screens share one key and one shape.
export { getSettings, useSettings } from '@/lib/queries/settings';
