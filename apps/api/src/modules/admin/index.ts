// The admin module's front door: the admin Dashboard overview, the mail outbox and admin-only reads.
export { adminRoutes } from './admin.routes';
