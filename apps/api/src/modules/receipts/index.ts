// The receipts module's front door (decision 040): the renter's receipt and the host's invoice of a
// booking as PDF, built from the ledger. It reads bookings (who may see one) and the ledger (the
// money); nothing imports it but the app.
export { receiptsRoutes } from './receipts.routes';
