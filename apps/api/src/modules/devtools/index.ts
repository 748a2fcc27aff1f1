// The devtools module's front door: the API test page's demo login accounts (admin only, demo data only).
export { devtoolsRoutes } from './devtools.routes';
