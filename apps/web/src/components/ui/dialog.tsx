// A modal dialog: overlay, focus moved inside and restored on close, Escape and backdrop close it.
// Dialogs may open over dialogs (a confirmation over Manage Details): Escape closes the top one only.
// While a dialog is open, toasts stand in a slot just above its panel (useDialogToastSlot), never
// over its title and close button, at any width (the panel shrinks and scrolls to make room).
import { clsx } from 'clsx';
import { X } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { openDialogs, stackChanged } from './dialog-stack';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  className?: string;
  /**
   * Taller than a phone's screen: the body scrolls between the title and the footer, so the
   * footer's buttons stay in reach (a cancel dialog with its amounts at 390 px).
   */
  scrollBody?: boolean;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({ open, onClose, title, description, children, footer, className, scrollBody = false }: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const toastSlot = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    if (!open) return;
    const self = Symbol('dialog');
    openDialogs.push({ id: self, toastSlot: toastSlot.current });
    stackChanged();
    const previous = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (openDialogs[openDialogs.length - 1]?.id !== self) return;
      if (event.key === 'Escape') onCloseRef.current();
      if (event.key === 'Tab' && panel.current) {
        const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (items.length === 0) return;
        const [head, tail] = [items[0]!, items[items.length - 1]!];
        if (event.shiftKey && document.activeElement === head) {
          event.preventDefault();
          tail.focus();
        } else if (!event.shiftKey && document.activeElement === tail) {
          event.preventDefault();
          head.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      openDialogs.splice(
        openDialogs.findIndex((d) => d.id === self),
        1,
      );
      stackChanged();
      document.body.style.overflow = overflow;
      if (previous?.isConnected) previous.focus();
    };
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div className="fixed inset-0 z-[90] flex flex-col items-center justify-end p-4 sm:justify-center">
      <div className="absolute inset-0 bg-stone-900/50 backdrop-blur-[2px]" aria-hidden="true" onClick={onClose} />
      {/* The toasts shown while this dialog is on top (filled by the Toaster; empty, it takes no room). */}
      <div ref={toastSlot} data-testid="dialog-toasts" className="pointer-events-none relative mb-2 flex w-full max-w-lg shrink-0 flex-col items-end gap-2 empty:hidden" />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={clsx('relative w-full max-w-lg rounded-2xl bg-white shadow-pop focus:outline-none', scrollBody && 'flex max-h-[calc(100dvh-2rem)] min-h-0 flex-col', className)}
      >
        <div className="flex shrink-0 items-start justify-between gap-4 px-6 pt-5">
          <div>
            <h2 id={titleId} className="text-lg font-semibold text-stone-900">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="mt-1 text-sm text-stone-500">
                {description}
              </p>
            ) : null}
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label="Close dialog"
            className="-mr-2 rounded-lg p-2 text-stone-400 hover:bg-stone-100 hover:text-stone-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            <X className="size-5" aria-hidden="true" />
          </button>
        </div>
        {children ? <div className={clsx('px-6 py-4', scrollBody && 'min-h-0 overflow-y-auto')}>{children}</div> : null}
        {footer ? <div className="flex shrink-0 justify-end gap-2 border-t border-stone-100 px-6 py-4">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
