// The Settings tab's "Security compromises" section (POPIA s. 22; decision 050): record what
// happened, when it was discovered, which information, the measures taken, what people should do and
// who is affected (everyone, or listed usernames or emails); the server tells each of them by email
// and in the app, in batches. The records stay listed with how many have been told so far.
import { BREACH_CATEGORY_LABELS, BREACH_DATA_CATEGORIES, type BreachDataCategory } from '@karoo/shared';
import { clsx } from 'clsx';
import { ShieldAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { inputClasses } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useBreaches, useRecordBreach } from '../api/admin-breaches';

function TextArea({ label, value, onChange, error, hint }: { label: string; value: string; onChange: (v: string) => void; error?: string | undefined; hint?: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-stone-800">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-note` : undefined}
        className={clsx(inputClasses, error ? 'border-red-400' : 'border-stone-300')}
      />
      {error || hint ? (
        <p id={`${id}-note`} className={clsx('mt-1 text-sm', error ? 'text-red-700' : 'text-stone-500')}>
          {error ?? hint}
        </p>
      ) : null}
    </div>
  );
}

export function BreachesSection() {
  const breaches = useBreaches();
  const record = useRecordBreach();
  const notify = useNotification();
  const [summary, setSummary] = useState('');
  const [discovered, setDiscovered] = useState('');
  const [categories, setCategories] = useState<BreachDataCategory[]>([]);
  const [measures, setMeasures] = useState('');
  const [advice, setAdvice] = useState('');
  const [scope, setScope] = useState<'all' | 'listed'>('listed');
  const [users, setUsers] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const discoveredId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const local = discovered ? new Date(discovered) : null;
    const body = {
      summary,
      discovered_at: local && !Number.isNaN(local.getTime()) ? local.toISOString() : '',
      data_categories: categories,
      measures,
      advice,
      scope,
      users: scope === 'listed' ? users.split(/[\s,;]+/).filter(Boolean) : [],
    };
    record.mutate(body, {
      onSuccess: (breach) => {
        notify.success('Security compromise recorded', `${breach.affected} ${breach.affected === 1 ? 'person is' : 'people are'} being told by email and in the app.`);
        setSummary('');
        setDiscovered('');
        setCategories([]);
        setMeasures('');
        setAdvice('');
        setUsers('');
        setErrors({});
      },
      onError: (e) => setErrors(isApiError(e) ? { ...e.errors, form: e.message } : { form: messageOf(e, 'Could not record it. Please try again.') }),
    });
  };

  return (
    <Card>
      <CardHeader
        title="Security compromises (POPIA s. 22)"
        description="Record a compromise of personal information: the people it affects are told at once, by email and in the app. Also notify the Information Regulator through its eServices portal."
        icon={<ShieldAlert className="size-5" aria-hidden="true" />}
      />
      <CardBody className="space-y-6">
        <form onSubmit={submit} noValidate aria-label="Record a security compromise" className="space-y-4">
          {errors.form ? <Alert tone="danger">{errors.form}</Alert> : null}
          <TextArea label="What happened" value={summary} onChange={setSummary} error={errors.summary} />
          <div>
            <label htmlFor={discoveredId} className="mb-1.5 block text-sm font-medium text-stone-800">
              When it was discovered
            </label>
            <input id={discoveredId} type="datetime-local" value={discovered} onChange={(e) => setDiscovered(e.target.value)} className={clsx(inputClasses, errors.discovered_at ? 'border-red-400' : 'border-stone-300')} />
            {errors.discovered_at ? <p className="mt-1 text-sm text-red-700">{errors.discovered_at}</p> : null}
          </div>
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium text-stone-800">Information involved</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {BREACH_DATA_CATEGORIES.map((c) => (
                <Checkbox
                  key={c}
                  label={BREACH_CATEGORY_LABELS[c]}
                  checked={categories.includes(c)}
                  onChange={(e) => setCategories((now) => (e.target.checked ? [...now, c] : now.filter((x) => x !== c)))}
                />
              ))}
            </div>
            {errors.data_categories ? <p className="mt-1 text-sm text-red-700">{errors.data_categories}</p> : null}
          </fieldset>
          <TextArea label="Measures taken" value={measures} onChange={setMeasures} error={errors.measures} />
          <TextArea label="What people should do" value={advice} onChange={setAdvice} error={errors.advice} hint="Sent to each affected person as written." />
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium text-stone-800">Who is affected</legend>
            <div className="flex flex-wrap gap-4 text-sm">
              <label className="flex items-center gap-2">
                <input type="radio" name="breach-scope" checked={scope === 'listed'} onChange={() => setScope('listed')} /> These people
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="breach-scope" checked={scope === 'all'} onChange={() => setScope('all')} /> Everyone with an account
              </label>
            </div>
          </fieldset>
          {scope === 'listed' ? <TextArea label="Usernames or emails" value={users} onChange={setUsers} error={errors.users} hint="One per line, or separated by commas." /> : null}
          <div className="flex justify-end">
            <Button type="submit" variant="danger" loading={record.isPending} icon={<ShieldAlert className="size-4" aria-hidden="true" />}>
              Record and notify
            </Button>
          </div>
        </form>

        <section aria-labelledby="breach-list-heading">
          <h3 id="breach-list-heading" className="text-sm font-semibold text-stone-900">
            Recorded compromises
          </h3>
          {breaches.isPending ? <Spinner label="Loading recorded compromises" /> : null}
          {breaches.isError ? <Alert tone="warning">{messageOf(breaches.error, 'Could not load them.')}</Alert> : null}
          {breaches.data?.length === 0 ? <p className="mt-2 text-sm text-stone-500">No security compromise has been recorded.</p> : null}
          <ul className="mt-2 divide-y divide-stone-100">
            {breaches.data?.map((b) => (
              <li key={b.id} className="py-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-stone-900">Discovered {formatDateTime(b.discovered_at)}</span>
                  <Badge tone={b.notified < b.affected ? 'warning' : 'success'}>
                    {b.notified} of {b.affected} told
                  </Badge>
                  <span className="text-stone-500">
                    recorded by @{b.recorded_by}, {formatDateTime(b.recorded_at)}
                  </span>
                </div>
                <p className="mt-1 text-stone-700">{b.summary}</p>
                <p className="mt-1 text-stone-500">{b.data_categories.map((c) => BREACH_CATEGORY_LABELS[c as BreachDataCategory] ?? c).join(' · ')}</p>
              </li>
            ))}
          </ul>
        </section>
      </CardBody>
    </Card>
  );
}
