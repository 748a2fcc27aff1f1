// The confirmation dialog of document 2: four types (info, warning, danger, success) and three
// states (closed, open, loading while confirming). On success it closes; on failure it stays open,
// stops loading and logs the failure, so the user can try again or back out. The screen that opens
// it shows its own toast (docs/decisions/014).
import { clsx } from 'clsx';
import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';
import { Dialog } from './dialog';

export type ConfirmTone = 'info' | 'warning' | 'danger' | 'success';

const TONES: Record<ConfirmTone, { icon: ReactNode; badge: string; button: ButtonVariant }> = {
  info: { icon: <Info className="size-5" aria-hidden="true" />, badge: 'bg-sky-50 text-sky-600', button: 'primary' },
  warning: { icon: <AlertTriangle className="size-5" aria-hidden="true" />, badge: 'bg-amber-50 text-amber-600', button: 'primary' },
  danger: { icon: <XCircle className="size-5" aria-hidden="true" />, badge: 'bg-red-50 text-red-600', button: 'danger' },
  success: { icon: <CheckCircle2 className="size-5" aria-hidden="true" />, badge: 'bg-emerald-50 text-emerald-600', button: 'success' },
};

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  /** Anything the user should see before deciding (a summary, a message field). */
  children?: ReactNode;
  tone?: ConfirmTone;
  confirmLabel: string;
  /** The confirm button's text while it works, e.g. "Cancelling…". */
  loadingLabel?: string;
  cancelLabel?: string;
  /**
   * Does the work. Resolving closes the dialog; throwing (or rejecting) keeps it open, no longer
   * loading, and logs the error.
   */
  onConfirm: () => unknown;
  /** Called to close it: Cancel, Escape, the backdrop, or after onConfirm succeeded. */
  onClose: () => void;
  /** Loading for a reason the dialog does not see (e.g. a mutation started elsewhere). */
  loading?: boolean;
  /** Nothing to confirm yet, or not allowed (the children say why). */
  confirmDisabled?: boolean;
  /** The body scrolls between the title and the buttons (Dialog's scrollBody). */
  scrollBody?: boolean;
  className?: string;
}

export function ConfirmDialog({
  open,
  title,
  description,
  children,
  tone = 'info',
  confirmLabel,
  loadingLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  onClose,
  loading = false,
  confirmDisabled = false,
  scrollBody = false,
  className,
}: ConfirmDialogProps) {
  const [confirming, setConfirming] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  // A dialog opened again starts fresh.
  useEffect(() => {
    if (!open) setConfirming(false);
  }, [open]);

  const busy = confirming || loading;
  const { icon, badge, button } = TONES[tone];

  const confirm = async () => {
    if (busy || confirmDisabled) return;
    setConfirming(true);
    try {
      await onConfirm();
      if (mounted.current) setConfirming(false);
      onClose();
    } catch (error) {
      console.error('Confirmation failed', error);
      if (mounted.current) setConfirming(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!busy) onClose();
      }}
      title={
        <span className="flex items-center gap-3">
          <span className={clsx('flex size-9 shrink-0 items-center justify-center rounded-full', badge)} data-tone={tone}>
            {icon}
          </span>
          {title}
        </span>
      }
      description={description}
      className={className}
      scrollBody={scrollBody}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={button} onClick={() => void confirm()} loading={busy} disabled={confirmDisabled}>
            {busy && loadingLabel ? loadingLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
