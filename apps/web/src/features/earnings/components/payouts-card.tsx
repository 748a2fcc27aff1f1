// The host's payouts on the Earnings page (decision 069): the bank account checked with the bank
// ("Account holder: T MOKOENA", confirmed before it is saved), when payouts run, the next payout
// with its lines, every transfer with its state and reference, and a statement per month.
import { formatRand, formatShortDay, scheduleLabel, TRANSFER_STATE_LABELS, WEEKDAY_NAMES, type HostPayouts, type PayoutTransfer, type ResolvedBankAccount } from '@karoo/shared';
import { Banknote, FileDown } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { downloadStatement, useBanks, useHostPayouts, useResolveAccount, useSaveAccount, useSaveSchedule } from '../api/payouts';

const STATE_TONE: Record<PayoutTransfer['state'], string> = {
  queued: 'bg-stone-100 text-stone-700',
  otp: 'bg-amber-100 text-amber-800',
  pending: 'bg-sky-100 text-sky-800',
  success: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
  reversed: 'bg-red-100 text-red-800',
};

function BankAccountForm({ onDone }: { onDone: () => void }) {
  const banks = useBanks();
  const resolve = useResolveAccount();
  const save = useSaveAccount();
  const notify = useNotification();
  const [bankCode, setBankCode] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [resolved, setResolved] = useState<ResolvedBankAccount | null>(null);
  const [error, setError] = useState<string | null>(null);

  const check = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      setResolved(await resolve.mutateAsync({ bank_code: bankCode, account_number: accountNumber.replace(/\s/g, '') }));
    } catch (err) {
      setError(messageOf(err, 'The account could not be checked.'));
    }
  };
  const confirm = async () => {
    if (!resolved) return;
    try {
      await save.mutateAsync({ bank_code: resolved.bank_code, account_number: resolved.account_number, confirmed_account_name: resolved.account_name });
      notify.success('Bank account saved', `Payouts go to ${resolved.bank_name} ····${resolved.account_number.slice(-4)}.`);
      onDone();
    } catch (err) {
      setError(messageOf(err, 'The account could not be saved.'));
    }
  };

  if (resolved) {
    return (
      <div className="rounded-xl border border-stone-200 bg-stone-50 p-4" aria-live="polite">
        <p className="text-sm text-stone-600">{resolved.bank_name} · account ····{resolved.account_number.slice(-4)}</p>
        <p className="mt-1 text-base font-semibold text-stone-900">Account holder: {resolved.account_name}</p>
        <p className="mt-1 text-sm text-stone-600">This is the name your bank has for the account. Is it yours?</p>
        {error && <Alert tone="danger" className="mt-3">{error}</Alert>}
        <div className="mt-3 flex flex-wrap gap-2">
          <Button onClick={confirm} loading={save.isPending}>Confirm and save</Button>
          <Button variant="secondary" onClick={() => setResolved(null)}>Not my account</Button>
        </div>
      </div>
    );
  }
  return (
    <form onSubmit={check} className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" noValidate>
      <label className="text-sm font-medium text-stone-700">
        Bank
        <select className={`${inputClasses} mt-1`} value={bankCode} onChange={(e) => setBankCode(e.target.value)} required>
          <option value="">Choose your bank</option>
          {banks.data?.map((b) => (
            <option key={b.code} value={b.code}>{b.name}</option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium text-stone-700">
        Account number
        <input className={`${inputClasses} mt-1`} inputMode="numeric" autoComplete="off" value={accountNumber} onChange={(e) => setAccountNumber(e.target.value)} required />
      </label>
      <Button type="submit" loading={resolve.isPending} disabled={!bankCode || accountNumber.trim().length < 6}>Check account</Button>
      {error && <Alert tone="danger" className="sm:col-span-3">{error}</Alert>}
    </form>
  );
}

/** A select as wide as its words, beside its label (inputClasses makes a full-width block). */
const inlineSelect = inputClasses.replace('block w-full', 'inline-block w-auto');

function ScheduleChooser({ data }: { data: HostPayouts }) {
  const save = useSaveSchedule();
  const notify = useNotification();
  const s = data.schedule;
  const change = (next: { schedule: 'trip' | 'weekly' | 'monthly'; weekday?: number; month_day?: number }) =>
    save.mutate(next, { onError: (err) => notify.error('Schedule not saved', messageOf(err, 'Please try again.')) });
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label className="font-medium text-stone-700" htmlFor="payout-schedule">Paid</label>
      <select id="payout-schedule" className={`${inlineSelect}`} value={s.schedule} onChange={(e) => change({ schedule: e.target.value as 'trip' | 'weekly' | 'monthly' })}>
        <option value="trip">after each trip</option>
        <option value="weekly">weekly</option>
        <option value="monthly">monthly</option>
      </select>
      {s.schedule === 'weekly' && (
        <select aria-label="Weekday" className={`${inlineSelect}`} value={s.weekday} onChange={(e) => change({ schedule: 'weekly', weekday: Number(e.target.value) })}>
          {[1, 2, 3, 4, 5].map((d) => (
            <option key={d} value={d}>on {WEEKDAY_NAMES[d]}</option>
          ))}
        </select>
      )}
      {s.schedule === 'monthly' && (
        <select aria-label="Day of the month" className={`${inlineSelect}`} value={s.month_day} onChange={(e) => change({ schedule: 'monthly', month_day: Number(e.target.value) })}>
          {Array.from({ length: 28 }, (_, i) => i + 1).map((d) => (
            <option key={d} value={d}>on day {d}</option>
          ))}
        </select>
      )}
      <p className="basis-full text-stone-500">{scheduleLabel(s)}. A public holiday moves it to the next business day.</p>
    </div>
  );
}

export function PayoutsCard() {
  const payouts = useHostPayouts();
  const [editing, setEditing] = useState(false);
  const notify = useNotification();
  if (payouts.isPending) return <Spinner label="Loading payouts" />;
  if (payouts.isError) return <Alert tone="danger">{messageOf(payouts.error, 'Payouts could not be loaded.')}</Alert>;
  const data = payouts.data;
  const next = data.next_payout;
  return (
    <section className="mt-6 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm" aria-labelledby="payouts-heading">
      <div className="flex items-center gap-2">
        <Banknote className="size-5 text-amber-700" aria-hidden="true" />
        <h2 id="payouts-heading" className="text-lg font-semibold text-stone-900">Payouts</h2>
      </div>

      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <div>
          <h3 className="text-sm font-semibold uppercase tracking-wide text-stone-500">Bank account</h3>
          {data.account && !editing ? (
            <div className="mt-2 text-sm text-stone-700">
              <p className="font-medium text-stone-900">{data.account.bank_name} ····{data.account.account_number_last4}</p>
              <p>Account holder: {data.account.account_name}</p>
              {data.account.hold_until && new Date(data.account.hold_until) > new Date() && (
                <p className="mt-1 text-amber-800">Changed recently: payouts wait until {formatShortDay(data.account.hold_until.slice(0, 10))}.</p>
              )}
              <Button variant="ghost" size="sm" className="mt-2 -ml-2" onClick={() => setEditing(true)}>Change bank account</Button>
            </div>
          ) : (
            <div className="mt-2">
              {!data.account && <p className="mb-3 text-sm text-stone-600">Add the account Karoo pays your earnings into. We check the holder's name with your bank.</p>}
              <BankAccountForm onDone={() => setEditing(false)} />
              {editing && <Button variant="ghost" size="sm" className="mt-2 -ml-2" onClick={() => setEditing(false)}>Keep the current account</Button>}
            </div>
          )}
          {data.account && <div className="mt-4"><ScheduleChooser data={data} /></div>}
        </div>

        <div>
          <h3 className="text-sm font-semibold uppercase tracking-wide text-stone-500">Next payout</h3>
          {next.amount === 0 && next.lines.length === 0 ? (
            // "R 0 on Wed 27 Jan" reads as a payout of nothing on a day: say that nothing is owed.
            <p className="mt-2 text-base font-medium text-stone-700" data-testid="next-payout">Nothing is owed to you now.</p>
          ) : (
            <p className="mt-2 text-2xl font-bold text-stone-900" data-testid="next-payout">
              {formatRand(next.amount)} <span className="text-base font-medium text-stone-600">on {formatShortDay(next.day)}</span>
            </p>
          )}
          {next.held_reason && <p className="mt-1 text-sm text-amber-800">{next.held_reason}</p>}
          {next.lines.length > 0 && (
            <ul className="mt-2 divide-y divide-stone-100 text-sm">
              {next.lines.map((l) => (
                <li key={`${l.kind}-${l.booking_number ?? 'penalty'}`} className="flex justify-between gap-3 py-1.5">
                  <span className="text-stone-700">{l.label}</span>
                  <span className={l.amount < 0 ? 'font-medium text-red-700' : 'font-medium text-stone-900'}>{formatRand(l.amount)}</span>
                </li>
              ))}
            </ul>
          )}
          {data.upcoming.length > 0 && (
            <p className="mt-2 text-sm text-stone-500">
              Not payable yet: {data.upcoming.map((u) => `${u.booking_number} ${formatRand(u.amount)} from ${formatShortDay(u.payable_from.slice(0, 10))}`).join('; ')}
            </p>
          )}
        </div>
      </div>

      <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-stone-500">Transfers</h3>
      {data.transfers.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">No payouts sent yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-stone-100">
          {data.transfers.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div className="min-w-0">
                <p className="font-medium text-stone-900">{formatRand(t.amount)} · {formatShortDay(t.created_at.slice(0, 10))}</p>
                <p className="break-words text-stone-500">{t.reference} · {t.bank_name} ····{t.account_number_last4}{t.failure_reason ? ` · ${t.failure_reason}` : ''}</p>
              </div>
              <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATE_TONE[t.state]}`}>{TRANSFER_STATE_LABELS[t.state]}</span>
            </li>
          ))}
        </ul>
      )}
      {data.statement_months.length > 0 && (
        <div className="mt-4 flex flex-wrap gap-2">
          {data.statement_months.map((m) => (
            <Button key={m} variant="secondary" size="sm" icon={<FileDown className="size-4" aria-hidden="true" />} onClick={() => downloadStatement(m).catch((err: unknown) => notify.error('Statement not downloaded', messageOf(err, 'Please try again.')))}>
              Statement {m}
            </Button>
          ))}
        </div>
      )}
    </section>
  );
}
