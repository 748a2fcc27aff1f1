// The earnings module's front door: earnings, summaries, invoices, payouts and admin finance.
export { earningsRoutes } from './earnings.routes';
