// The ledger module's front door (docs/decisions/039-one-ledger.md): one append-only row per money
// movement, and the sums every money screen shows. It sits at the bottom of the graph: payments,
// earnings and the seed record movements through it; it imports no module.
export * from './ledger.repository';
export * from './ledger.reports';
