// How often the web asks for new messages (decision 041): polling works on any number of API
// instances with nothing but the API. Kept free of zod: the navigation bell, in every page's
// bundle, reads it (npm run size budgets the landing page).

/** While a conversation is open. */
export const MESSAGE_POLL_MS = 5_000;
/** The unread counts on My Bookings and in the navigation bell. */
export const UNREAD_POLL_MS = 30_000;
