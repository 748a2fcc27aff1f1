// The health module's front door: /api/health, and the live and ready probes.
export { healthRoutes } from './health.routes';
