// /api-playground (document 3, decisions.md section 10): an admin tries the API's operations in
// four tabs and reads each answer. Every call goes through the shared api client with the admin's
// own token, so the server applies its usual rules; the page only collects the inputs.
import { useQueryClient } from '@tanstack/react-query';
import { CalendarDays, Car, Terminal, Users, Wallet } from 'lucide-react';
import { useState } from 'react';
import { Card, CardHeader } from '@/components/ui/card';
import { useAuth } from '@/lib/auth';
import type { ApiResult } from '@/lib/api-client';
import { runOperation, type OperationResult } from '../api/run-operation';
import { BookingsOperations } from './bookings-operations';
import { CarsOperations } from './cars-operations';
import { DevToolsAccess } from './dev-tools-access';
import { FinanceOperations } from './finance-operations';
import { OperationResultPanel } from './operation-result';
import { Tabs, type TabItem } from './playground-tabs';
import { UsersOperations } from './users-operations';

type TabKey = 'cars' | 'users' | 'bookings' | 'finance';

const TABS: readonly TabItem<TabKey>[] = [
  { key: 'cars', label: 'Cars', icon: <Car className="size-4" aria-hidden="true" /> },
  { key: 'users', label: 'Users', icon: <Users className="size-4" aria-hidden="true" /> },
  { key: 'bookings', label: 'Bookings', icon: <CalendarDays className="size-4" aria-hidden="true" /> },
  { key: 'finance', label: 'Finance', icon: <Wallet className="size-4" aria-hidden="true" /> },
];

function Playground() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabKey>('cars');
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<OperationResult | null>(null);

  const run = async (label: string, call: () => Promise<ApiResult<unknown>>, options: { writes?: boolean } = {}) => {
    setBusy(label);
    try {
      const outcome = await runOperation(label, call);
      setResult(outcome);
      // A change made here shows on every other screen the admin opens next.
      if (outcome.isSuccess && options.writes) void queryClient.invalidateQueries();
      return outcome;
    } finally {
      setBusy(null);
    }
  };
  const props = { run, busy };

  return (
    <div className="mx-auto w-full min-w-0 max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold text-stone-900">API Playground</h1>
      <p className="mt-1 text-stone-600">Call the Karoo API as {user?.username}. Every operation runs against the real server and its data.</p>

      <div className="mt-6 grid gap-6 lg:grid-cols-5">
        <div className="min-w-0 lg:col-span-3">
          <Tabs label="API areas" tabs={TABS} selected={tab} onSelect={setTab}>
            {tab === 'cars' ? <CarsOperations {...props} owner={user?.username ?? ''} /> : null}
            {tab === 'users' ? <UsersOperations {...props} /> : null}
            {tab === 'bookings' ? <BookingsOperations {...props} /> : null}
            {tab === 'finance' ? <FinanceOperations {...props} /> : null}
          </Tabs>
        </div>
        <Card className="min-w-0 self-start lg:sticky lg:top-20 lg:col-span-2">
          <CardHeader title="Response" description={result ? result.label : 'No operation yet'} icon={<Terminal className="size-5" aria-hidden="true" />} />
          <div className="px-5 py-4 sm:px-6">
            <OperationResultPanel result={result} />
          </div>
        </Card>
      </div>
    </div>
  );
}

export function ApiPlaygroundPage() {
  return (
    <DevToolsAccess>
      <Playground />
    </DevToolsAccess>
  );
}
