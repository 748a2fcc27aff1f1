// An administrator reads a booking's conversation (decision 041): only for a stated reason (a
// dispute, a report), which the audit log records with each reading. Read once, never polled, and
// read only: the conversation belongs to the renter and the host.
import type { Booking } from '@karoo/shared';
import { useId, useState, type FormEvent } from 'react';
import { MessageList } from '@/components/conversation/message-list';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { messageOf } from '@/lib/api-client';
import { useConversation } from '@/lib/queries/messages';

/** The longest reason the server accepts (adminConversationQuerySchema). */
const REASON_MAX = 300;

interface ReadConversationDialogProps {
  booking: Pick<Booking, 'id' | 'booking_id'>;
  /** A reason to start from (a report's), which the administrator may still change. */
  initialReason?: string;
  onClose: () => void;
}

export function ReadConversationDialog({ booking, initialReason = '', onClose }: ReadConversationDialogProps) {
  const [reason, setReason] = useState(initialReason.slice(0, REASON_MAX));
  const [given, setGiven] = useState<string | null>(null);
  const fieldId = useId();
  const conversation = useConversation(booking.id, { reason: given ?? '', enabled: given !== null });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (reason.trim()) setGiven(reason.trim());
  }

  return (
    <Dialog open onClose={onClose} title={`Conversation · ${booking.booking_id}`} description="Between the renter and the host. Your reading is recorded in the audit log with your reason." scrollBody>
      {given === null ? (
        <form onSubmit={onSubmit} className="flex flex-col gap-2">
          <label htmlFor={fieldId} className="text-sm font-medium text-stone-700">
            Why are you reading it? (a dispute, a report)
          </label>
          <input
            id={fieldId}
            value={reason}
            maxLength={REASON_MAX}
            onChange={(e) => setReason(e.target.value)}
            className="w-full rounded-lg border border-stone-300 px-3 py-2 text-base focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20 sm:text-sm"
          />
          <div className="flex justify-end gap-2">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!reason.trim()}>
              Read conversation
            </Button>
          </div>
        </form>
      ) : conversation.isPending ? (
        <p className="py-6 text-center text-sm text-stone-500">Loading messages…</p>
      ) : conversation.isError ? (
        <p role="alert" className="py-6 text-center text-sm text-red-700">{messageOf(conversation.error, 'Could not load the conversation.')}</p>
      ) : (
        <MessageList messages={conversation.data.messages} emptyText="The renter and the host have not written to each other." />
      )}
    </Dialog>
  );
}
