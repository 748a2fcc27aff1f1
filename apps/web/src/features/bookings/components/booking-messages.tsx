// The booking's conversation (issue 21, decision 041): a "Messages" button on the booking card with
// the unread count, opening a dialog that polls for new messages while it is open, marks them read,
// sends new ones (the server's limits answer with their own words) and reports one.
import { MESSAGE_MAX_LENGTH, type BookingMessage, type Booking } from '@karoo/shared';
import { MessageSquare } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { MessageList } from '@/components/conversation/message-list';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useConversation, useMarkConversationRead, useReportMessage, useSendMessage, useUnreadMessages } from '@/lib/queries/messages';

export function BookingMessagesButton({ booking }: { booking: Booking }) {
  // The notification's link (/my-bookings?messages=<booking>) opens this conversation.
  const [searchParams] = useSearchParams();
  const [open, setOpen] = useState(() => searchParams.get('messages') === booking.id);
  const unread = useUnreadMessages().data?.bookings.find((b) => b.booking_id === booking.id)?.unread ?? 0;
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} icon={<MessageSquare className="size-4" aria-hidden="true" />}>
        Messages
        {unread > 0 ? (
          <span data-testid="message-unread" className="ml-1 rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white">
            {unread}
            <span className="sr-only"> unread</span>
          </span>
        ) : null}
      </Button>
      {open ? <ConversationDialog booking={booking} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ConversationDialog({ booking, onClose }: { booking: Booking; onClose: () => void }) {
  const conversation = useConversation(booking.id);
  const send = useSendMessage(booking.id);
  const markRead = useMarkConversationRead(booking.id);
  const [draft, setDraft] = useState('');
  const [reporting, setReporting] = useState<BookingMessage | null>(null);
  const notify = useNotification();
  const fieldId = useId();
  const end = useRef<HTMLDivElement>(null);
  const data = conversation.data;
  const count = data?.messages.length ?? 0;
  const unread = data?.unread ?? 0;

  // Reading the dialog reads the messages: mark them read whenever new ones arrive.
  const { mutate: markReadNow } = markRead;
  useEffect(() => {
    if (unread > 0) markReadNow();
  }, [unread, markReadNow]);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);

  async function onSend(event: FormEvent) {
    event.preventDefault();
    const body = draft.trim();
    if (!body) return;
    try {
      await send.mutateAsync(body);
      setDraft('');
    } catch (error) {
      notify.error('Message Not Sent', messageOf(error, 'Your message was not sent. Please try again.'));
    }
  }

  return (
    <Dialog open onClose={onClose} title={`Messages · ${booking.booking_id}`} description={`${booking.car_name}: between the renter and the host`} scrollBody>
      {conversation.isPending ? (
        <p className="py-6 text-center text-sm text-stone-500">Loading messages…</p>
      ) : conversation.isError ? (
        <p role="alert" className="py-6 text-center text-sm text-red-700">{messageOf(conversation.error, 'Could not load the messages.')}</p>
      ) : (
        <div className="flex flex-col gap-4">
          {data?.masking_reason ? <p className="rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900">{data.masking_reason}</p> : null}
          <div aria-live="polite">
            <MessageList messages={data?.messages ?? []} onReport={setReporting} emptyText="No messages yet. Say hello, or ask about pickup." />
          </div>
          <div ref={end} />
          {data?.can_post ? (
            <form onSubmit={onSend} className="flex flex-col gap-2">
              <label htmlFor={fieldId} className="text-sm font-medium text-stone-700">
                Your message
              </label>
              <textarea
                id={fieldId}
                rows={3}
                maxLength={MESSAGE_MAX_LENGTH}
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                className="w-full rounded-lg border border-stone-300 px-3 py-2 text-base focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20 sm:text-sm"
              />
              <div className="flex items-center justify-between gap-2">
                <span className="text-xs text-stone-500">
                  {draft.length}/{MESSAGE_MAX_LENGTH}
                </span>
                <Button type="submit" loading={send.isPending} disabled={!draft.trim()}>
                  Send
                </Button>
              </div>
            </form>
          ) : data?.closed_reason ? (
            <p className="text-sm text-stone-600">{data.closed_reason}</p>
          ) : null}
        </div>
      )}
      {reporting ? <ReportDialog message={reporting} onClose={() => setReporting(null)} /> : null}
    </Dialog>
  );
}

function ReportDialog({ message, onClose }: { message: BookingMessage; onClose: () => void }) {
  const report = useReportMessage();
  const notify = useNotification();
  const [reason, setReason] = useState('');
  const fieldId = useId();
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      await report.mutateAsync({ messageId: message.id, reason: reason.trim() });
      notify.success('Message Reported', 'Thank you. Karoo will look at it.');
      onClose();
    } catch (error) {
      notify.error('Report Failed', messageOf(error, 'The report was not sent. Please try again.'));
    }
  }
  return (
    <Dialog open onClose={onClose} title="Report this message" description={`From ${message.sender.full_name}: “${message.body.slice(0, 120)}”`}>
      <form onSubmit={onSubmit} className="flex flex-col gap-2">
        <label htmlFor={fieldId} className="text-sm font-medium text-stone-700">
          What is wrong with it?
        </label>
        <textarea
          id={fieldId}
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          className="w-full rounded-lg border border-stone-300 px-3 py-2 text-base focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20 sm:text-sm"
        />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={report.isPending} disabled={reason.trim().length < 3}>
            Report
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
