// A queue of items waiting for an administrator (open disputes, reported messages, correction
// requests): its heading, what it is while loading, when it fails and when it is empty, then its
// items. The items and what they offer are the queue's own.
import type { ReactNode } from 'react';

export interface AdminQueueProps {
  /** The heading's id (the section is labelled by it). */
  id: string;
  title: string;
  intro?: string;
  isPending: boolean;
  isError: boolean;
  isEmpty: boolean;
  loading: string;
  failed: string;
  empty: string;
  children: ReactNode;
}

export function AdminQueue({ id, title, intro, isPending, isError, isEmpty, loading, failed, empty, children }: AdminQueueProps) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-stone-200 bg-white p-4">
      <h2 id={id} className="text-base font-semibold text-stone-900">
        {title}
      </h2>
      {intro ? <p className="mt-0.5 text-sm text-stone-600">{intro}</p> : null}
      {isPending ? <p className="mt-2 text-sm text-stone-600">{loading}</p> : null}
      {isError ? <p className="mt-2 text-sm text-red-700">{failed}</p> : null}
      {isEmpty ? <p className="mt-2 text-sm text-stone-600">{empty}</p> : null}
      {children}
    </section>
  );
}
