// What the cars module keeps per app, added to the AppContext by declaration merging (context.ts):
// app-context.ts builds both when it builds the app.
import type { BrowseIndex } from './browse-index';
import type { ListingCache } from './listing-cache';

declare module '../../context' {
  interface AppContext {
    /** Public browse pages, kept for a few seconds (decision 020). */
    listingCache: ListingCache;
    /** The listed cars' browse columns in memory (decision 028). */
    browseIndex: BrowseIndex;
  }
}
