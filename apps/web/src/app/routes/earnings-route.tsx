// The host's earnings, loaded on demand (its chart loads on its own, later still).
import { EarningsPage } from '@/features/earnings/components/earnings-page';

export function EarningsRoute() {
  return <EarningsPage />;
}
