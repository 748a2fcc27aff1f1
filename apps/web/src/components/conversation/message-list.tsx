// A booking conversation's messages, oldest first, as a log: the viewer's own on the right. Pure
// rendering: the screens fetch the conversation and pass what to do on Report.
import type { BookingMessage } from '@karoo/shared';
import { clsx } from 'clsx';
import { formatDateTime } from '@/lib/format';

export interface MessageListProps {
  messages: BookingMessage[];
  /** Offered on the other person's messages, when the viewer may report them. */
  onReport?: (message: BookingMessage) => void;
  emptyText?: string;
}

export function MessageList({ messages, onReport, emptyText = 'No messages yet.' }: MessageListProps) {
  if (messages.length === 0) return <p className="py-6 text-center text-sm text-stone-500">{emptyText}</p>;
  return (
    <ol className="flex flex-col gap-3" aria-label="Messages">
      {messages.map((message) => (
        <li key={message.id} className={clsx('flex max-w-[85%] flex-col', message.mine ? 'self-end items-end' : 'self-start items-start')} data-testid="message">
          <p className="text-xs text-stone-500">
            <span className="font-medium text-stone-700">{message.mine ? 'You' : `${message.sender.full_name} (${message.sender.role})`}</span>
            {' · '}
            <time dateTime={message.created_at}>{formatDateTime(message.created_at)}</time>
          </p>
          <p className={clsx('mt-1 whitespace-pre-wrap break-words rounded-2xl px-3 py-2 text-sm', message.mine ? 'bg-brand-700 text-white' : 'bg-stone-100 text-stone-900')}>
            {message.body}
          </p>
          {onReport && !message.mine ? (
            <button
              type="button"
              onClick={() => onReport(message)}
              className="mt-1 rounded px-1 text-xs text-stone-600 underline hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              Report<span className="sr-only"> this message from {message.sender.full_name}</span>
            </button>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
