import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, type ConfirmTone } from './confirm-dialog';

function Harness({ onConfirm, tone = 'danger' }: { onConfirm: () => unknown; tone?: ConfirmTone }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Delete it
      </button>
      <ConfirmDialog
        open={open}
        tone={tone}
        title="Delete this plan?"
        description="Renters will no longer see it."
        confirmLabel="Delete"
        loadingLabel="Deleting…"
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('ConfirmDialog (document 2: closed, open, loading while confirming)', () => {
  it('is closed until asked, then open with its title and both choices; Cancel closes without confirming', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    render(<Harness onConfirm={onConfirm} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete it' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this plan?' });
    expect(dialog).toHaveAccessibleDescription('Renters will no longer see it.');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('loads while confirming (no second click, no closing) and closes when the work succeeds', async () => {
    const user = userEvent.setup();
    const work = deferred();
    const onConfirm = vi.fn(() => work.promise);
    render(<Harness onConfirm={onConfirm} />);
    await user.click(screen.getByRole('button', { name: 'Delete it' }));

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const busy = screen.getByRole('button', { name: 'Deleting…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(onConfirm).toHaveBeenCalledTimes(1);

    work.resolve();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('on failure stays open, stops loading and logs the failure', async () => {
    const user = userEvent.setup();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('409 dates taken');
    render(<Harness onConfirm={() => Promise.reject(failure)} />);
    await user.click(screen.getByRole('button', { name: 'Delete it' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    const again = await screen.findByRole('button', { name: 'Delete' });
    expect(again).toBeEnabled();
    expect(screen.getByRole('dialog', { name: 'Delete this plan?' })).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('Confirmation failed', failure);
  });

  it.each(['info', 'warning', 'danger', 'success'] as const)('has the %s type', async (tone) => {
    const user = userEvent.setup();
    render(<Harness onConfirm={() => {}} tone={tone} />);
    await user.click(screen.getByRole('button', { name: 'Delete it' }));
    expect(screen.getByRole('dialog').querySelector(`[data-tone="${tone}"]`)).not.toBeNull();
  });
});
