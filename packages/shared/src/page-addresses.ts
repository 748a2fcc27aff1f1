// The addresses of the public pages (issue 32): one function builds each, and the sitemap, the
// pages' canonical links and their JSON-LD all call it, so a page is named one way everywhere
// (a city page is /cars?location=Cape+Town in both). No schema here: the public pages import it.

/** A car's page: /cars/{car_username}. */
export function carPagePath(carUsername: string): string {
  return `/cars/${encodeURIComponent(carUsername)}`;
}

/** The browse page of a city and a type (either may be left out), its query as a form would send it. */
export function browsePagePath({ location, type }: { location?: string | null; type?: string | null } = {}): string {
  const params = new URLSearchParams();
  if (location) params.set('location', location);
  if (type) params.set('type', type);
  const query = params.toString();
  return `/cars${query ? `?${query}` : ''}`;
}
