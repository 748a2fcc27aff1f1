// The playground's Finance tab (document 3): the lists of invoices, earnings and active rents.
// Earnings read one host's list when a username is given, else the platform summary.
import { FileText, KeyRound, Wallet } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { apiClient } from '@/lib/api-client';
import { segment } from '../api/run-operation';
import { isBlank, OperationCard, type OperationProps } from './operation-card';

export function FinanceOperations({ run, busy }: OperationProps) {
  const [host, setHost] = useState('');
  const isBusy = busy !== null;

  const listEarnings = () =>
    isBlank(host)
      ? run('Earnings Summary', () => apiClient.get('/earnings/earning/getSummary'))
      : run('Host Earnings', () => apiClient.get(`/earnings/earning/getCarOwnerProfit/${segment(host)}`));

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <OperationCard
        title="Invoices"
        description="GET /api/earnings/earning/getInvoiceList"
        icon={<FileText className="size-5" aria-hidden="true" />}
        actions={
          <Button variant="secondary" onClick={() => void run('List Invoices', () => apiClient.get('/earnings/earning/getInvoiceList'))} loading={busy === 'List Invoices'} disabled={isBusy}>
            List Invoices
          </Button>
        }
      />
      <OperationCard
        title="Earnings"
        description="A host's earnings, or the platform summary when empty."
        icon={<Wallet className="size-5" aria-hidden="true" />}
        onSubmit={() => void listEarnings()}
        actions={
          <Button type="submit" variant="secondary" loading={busy === 'Host Earnings' || busy === 'Earnings Summary'} disabled={isBusy}>
            List Earnings
          </Button>
        }
      >
        <Input label="Host username (optional)" value={host} onChange={(event) => setHost(event.target.value)} autoComplete="off" containerClassName="sm:col-span-2" />
      </OperationCard>
      <OperationCard
        title="Active Rents"
        description="GET /api/booking/getList?status=active"
        icon={<KeyRound className="size-5" aria-hidden="true" />}
        actions={
          <Button
            variant="secondary"
            onClick={() => void run('List Active Rents', () => apiClient.get('/booking/getList', { query: { status: 'active' } }))}
            loading={busy === 'List Active Rents'}
            disabled={isBusy}
          >
            List Active Rents
          </Button>
        }
      />
    </div>
  );
}
