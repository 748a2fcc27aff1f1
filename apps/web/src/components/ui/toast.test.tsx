// Toasts and dialogs (issue 32): while a dialog is open the toasts stand in its slot above the
// panel, outside the panel itself, so none covers the dialog's title or its close button; when the
// dialog closes they return to their corner.
import { act, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Dialog } from './dialog';
import { NotificationProvider, useNotification } from './toast';

function Page() {
  const notify = useNotification();
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => notify.error('Cancel Failed', 'Please try again.', 0)}>
        Fail
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Cancel your trip?">
        <p>Body</p>
      </Dialog>
    </>
  );
}

describe('Toasts while a dialog is open', () => {
  it('stand above the dialog panel, not inside it nor over it, and go back to their corner when it closes', async () => {
    render(
      <NotificationProvider>
        <Page />
      </NotificationProvider>,
    );
    act(() => screen.getByRole('button', { name: 'Fail', hidden: true }).click());
    const toast = await screen.findByRole('alert');
    const slot = screen.getByTestId('dialog-toasts');
    const dialog = screen.getByRole('dialog', { name: 'Cancel your trip?' });
    expect(slot).toContainElement(toast);
    expect(dialog).not.toContainElement(toast);
    // The slot comes before the panel in the dialog's column: the toasts sit above it, the panel below.
    expect(slot.compareDocumentPosition(dialog) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Close dialog' })).toBeInTheDocument();

    act(() => within(dialog).getByRole('button', { name: 'Close dialog' }).click());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Cancel Failed');
    expect(screen.queryByTestId('dialog-toasts')).not.toBeInTheDocument();
  });
});
