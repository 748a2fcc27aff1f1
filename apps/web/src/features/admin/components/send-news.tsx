// Karoo news in the admin's Users tab (decision 049): the one marketing email. It goes only to people
// whose latest marketing choice is yes (the mail layer refuses anyone else), each with a one-click
// unsubscribe link and headers; booking and account mail is unaffected.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useSendNews } from '../api/admin-corrections';

export function SendNews() {
  const send = useSendNews();
  const notify = useNotification();
  const messageId = useId();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (subject.trim().length < 3 || message.trim().length < 10) {
      setError('Write a subject (3 characters or more) and the news (10 characters or more).');
      return;
    }
    setError(null);
    try {
      const result = await send.mutateAsync({ subject: subject.trim(), message: message.trim() });
      notify.success('News queued', `For ${result.queued} ${result.queued === 1 ? 'person' : 'people'} who opted in.`);
      setSubject('');
      setMessage('');
    } catch (err) {
      setError(messageOf(err, 'The news could not be sent. Please try again.'));
    }
  }

  return (
    <section aria-labelledby="send-news-title" className="rounded-xl border border-stone-200 bg-white p-4">
      <h2 id="send-news-title" className="text-base font-semibold text-stone-900">
        Karoo news
      </h2>
      <p className="mt-0.5 text-sm text-stone-600">Emailed only to people who opted in to marketing, each with a one-click unsubscribe link.</p>
      <form onSubmit={submit} noValidate className="mt-3 space-y-3" aria-label="Send Karoo news">
        <Input label="Subject" value={subject} maxLength={120} onChange={(e) => setSubject(e.target.value)} />
        <div>
          <label htmlFor={messageId} className="mb-1.5 block text-sm font-medium text-stone-700">
            News (a blank line starts a new paragraph)
          </label>
          <textarea
            id={messageId}
            rows={4}
            maxLength={5000}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            className="w-full rounded-lg border border-stone-300 px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20 sm:text-sm"
          />
        </div>
        {error ? (
          <p role="alert" className="text-sm font-medium text-red-600">
            {error}
          </p>
        ) : null}
        <Button type="submit" loading={send.isPending}>
          Send to those who opted in
        </Button>
      </form>
    </section>
  );
}
