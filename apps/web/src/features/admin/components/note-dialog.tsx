// The admin's answer to an item of a queue (a dispute resolved, a reported message handled, a
// correction approved or declined): a dialog asking for a note, which the audit log keeps and, for
// a correction, the person reads. One form for all three, so they check and say things alike.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { messageOf } from '@/lib/api-client';

/** The shortest note the server takes (decisions 041, 042, 049). */
const MIN_NOTE = 3;

export interface NoteDialogProps {
  title: string;
  description?: string;
  /** The form's accessible name. */
  formLabel: string;
  noteLabel: string;
  maxLength: number;
  /** Said when the note is shorter than 3 characters. */
  tooShort: string;
  submitLabel: string;
  submitVariant?: 'primary' | 'danger';
  pending: boolean;
  /** Saves the note; throws the server's refusal, which the dialog shows (`failure` when it says nothing). */
  onSubmit: (note: string) => Promise<void>;
  failure: string;
  onClose: () => void;
}

export function NoteDialog({ title, description, formLabel, noteLabel, maxLength, tooShort, submitLabel, submitVariant = 'primary', pending, onSubmit, failure, onClose }: NoteDialogProps) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const noteId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (note.trim().length < MIN_NOTE) {
      setError(tooShort);
      return;
    }
    try {
      await onSubmit(note.trim());
      onClose();
    } catch (err) {
      setError(messageOf(err, failure));
    }
  }

  return (
    <Dialog open onClose={onClose} title={title} description={description}>
      <form onSubmit={submit} noValidate className="space-y-4" aria-label={formLabel}>
        <div>
          <label htmlFor={noteId} className="mb-1.5 block text-sm font-medium text-stone-700">
            {noteLabel}
          </label>
          <textarea
            id={noteId}
            rows={3}
            required
            maxLength={maxLength}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={error ? `${noteId}-error` : undefined}
            className="w-full rounded-lg border border-stone-300 px-3 py-2 text-base shadow-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20 sm:text-sm"
          />
          {error ? (
            <p id={`${noteId}-error`} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant={submitVariant} loading={pending}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
