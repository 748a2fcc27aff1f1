// Business constants of document 1 section 9, shared by server and client.
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
/** An emailed sign-in link works once, within 15 minutes (docs/decisions/030-proxies-and-sign-in-links.md). */
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;
export const BANNER_DISMISS_MS = 60 * 60 * 1000;
export const BANNER_MAX_ITEMS = 3;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const REGISTER_PASSWORD_MIN = 6;
export const RESET_PASSWORD_MIN = 8;
export const REQUEST_TIMEOUT_MS = 10_000;
export const MOBILE_BREAKPOINT_PX = 640;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const REMEMBER_ME_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const LEGAL_LAST_UPDATED = 'August 16, 2025';
export const SUPPORT_EMAIL = 'support@karoo.co.za';
export const TIME_ZONE = 'Africa/Johannesburg';

/**
 * The field of a 409 that refuses a booking request or a listing while the person has not accepted
 * the terms and privacy notice in force; the web app then asks them to (decision 049). Here, with no
 * schema around it: the web app's query client, on every page, reads it.
 */
export const POLICIES_PENDING_FIELD = 'policies';
