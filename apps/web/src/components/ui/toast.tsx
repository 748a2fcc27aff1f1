// Toasts: short messages stacked top-right. NotificationProvider holds them, useNotification shows
// them. Errors are announced assertively (role=alert), everything else politely (role=status).
// While a dialog is open they stand just above it (the dialog's slot), so none covers its close button.
import { clsx } from 'clsx';
import { AlertTriangle, CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useDialogToastSlot } from './dialog-stack';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export interface Toast {
  id: string;
  type: ToastType;
  title: string;
  message?: string;
  /** Milliseconds before it closes by itself; 0 keeps it until dismissed. */
  duration: number;
}

export interface ToastInput {
  type?: ToastType;
  title: string;
  message?: string;
  duration?: number;
}

export const DEFAULT_TOAST_DURATION_MS = 5000;
const MAX_VISIBLE = 5;

type Shortcut = (title: string, message?: string, duration?: number) => string;

/** Stable for the provider's lifetime, so using it never re-renders a component. */
export interface NotificationContextValue {
  showNotification: (toast: ToastInput) => string;
  dismissNotification: (id: string) => void;
  success: Shortcut;
  error: Shortcut;
  warning: Shortcut;
  info: Shortcut;
}

const NotificationContext = createContext<NotificationContextValue | null>(null);

let counter = 0;
function nextId(): string {
  counter += 1;
  return `toast-${Date.now().toString(36)}-${counter}`;
}

export function NotificationProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);

  const dismissNotification = useCallback((id: string) => {
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const showNotification = useCallback((input: ToastInput) => {
    const toast: Toast = {
      id: nextId(),
      type: input.type ?? 'info',
      title: input.title,
      ...(input.message ? { message: input.message } : {}),
      duration: input.duration ?? DEFAULT_TOAST_DURATION_MS,
    };
    setToasts((current) => [...current, toast].slice(-MAX_VISIBLE));
    return toast.id;
  }, []);

  const value = useMemo<NotificationContextValue>(() => {
    const shortcut =
      (type: ToastType): Shortcut =>
      (title, message, duration) =>
        showNotification({ type, title, message, duration });
    return {
      showNotification,
      dismissNotification,
      success: shortcut('success'),
      error: shortcut('error'),
      warning: shortcut('warning'),
      info: shortcut('info'),
    };
  }, [showNotification, dismissNotification]);

  return (
    <NotificationContext.Provider value={value}>
      {children}
      <Toaster toasts={toasts} onDismiss={dismissNotification} />
    </NotificationContext.Provider>
  );
}

export function useNotification(): NotificationContextValue {
  const context = useContext(NotificationContext);
  if (!context) throw new Error('useNotification must be used within a NotificationProvider');
  return context;
}

const styles: Record<ToastType, { icon: ReactNode; accent: string }> = {
  success: { icon: <CheckCircle2 className="size-5 text-emerald-600" aria-hidden="true" />, accent: 'border-l-emerald-500' },
  error: { icon: <XCircle className="size-5 text-red-600" aria-hidden="true" />, accent: 'border-l-red-500' },
  warning: { icon: <AlertTriangle className="size-5 text-amber-600" aria-hidden="true" />, accent: 'border-l-amber-500' },
  info: { icon: <Info className="size-5 text-sky-600" aria-hidden="true" />, accent: 'border-l-sky-500' },
};

function Toaster({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: string) => void }) {
  const dialogSlot = useDialogToastSlot();
  if (dialogSlot) {
    return createPortal(
      toasts.map((toast) => <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />),
      dialogSlot,
    );
  }
  return (
    <div
      className="pointer-events-none fixed inset-x-0 top-16 z-[100] flex flex-col items-center gap-2 p-3 sm:inset-x-auto sm:right-0 sm:items-end sm:px-5 sm:py-3"
    >
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
      ))}
    </div>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(toast.duration);
  const startedAt = useRef(0);

  useEffect(() => {
    if (toast.duration <= 0 || paused) return;
    startedAt.current = Date.now();
    const timer = setTimeout(() => onDismiss(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - startedAt.current;
    };
  }, [paused, toast.duration, toast.id, onDismiss]);

  const { icon, accent } = styles[toast.type];
  return (
    <div
      role={toast.type === 'error' ? 'alert' : 'status'}
      aria-live={toast.type === 'error' ? 'assertive' : 'polite'}
      aria-atomic="true"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      className={clsx(
        'pointer-events-auto flex w-full max-w-sm animate-toast-in items-start gap-3 rounded-xl border border-l-4 border-stone-200 bg-white p-4 shadow-pop',
        accent,
      )}
    >
      <span className="mt-0.5 shrink-0">{icon}</span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-stone-900">{toast.title}</p>
        {toast.message ? <p className="mt-0.5 text-sm text-stone-600">{toast.message}</p> : null}
      </div>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        aria-label="Dismiss notification"
        className="-m-1 shrink-0 rounded-lg p-1 text-stone-400 hover:bg-stone-100 hover:text-stone-600 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </div>
  );
}
