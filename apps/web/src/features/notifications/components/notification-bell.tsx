// The bell in the navigation and its dropdown (document 1, notification dropdown): newest first,
// unread highlighted, a red dot while anything is unread; clicking one marks it read and follows
// its link. Clear All asks first: it deletes every notification for good.
import type { Notification } from '@karoo/shared';
import { clsx } from 'clsx';
import { Bell, BellOff } from 'lucide-react';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useDismiss } from '@/lib/use-dismiss';
import { useAuth } from '@/lib/auth';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { useUnreadMessages } from '@/lib/queries/messages';
import { useClearNotifications } from '../api/clear-notifications';
import { useNotifications } from '../api/get-notifications';
import { useMarkNotificationRead } from '../api/mark-notification-read';

export function NotificationBell() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [confirmingClear, setConfirmingClear] = useState(false);
  const notify = useNotification();
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useNotifications(user?.username);
  const markRead = useMarkNotificationRead(user?.username);
  const clearAll = useClearNotifications(user?.username);
  // Unread booking messages count on the bell too (decision 041); they are read on the booking.
  const unreadMessages = useUnreadMessages(!!user).data?.total ?? 0;

  useDismiss(open, container, (reason) => {
    setOpen(false);
    if (reason === 'escape') button.current?.focus();
  });

  if (!user) return null;
  const notifications = list.data ?? [];
  const unread = notifications.filter((n) => !n.read).length;

  const onPick = (notification: Notification) => {
    if (!notification.read) markRead.mutate(notification.id);
    if (notification.link) {
      setOpen(false);
      navigate(notification.link);
    }
  };

  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        aria-haspopup="true"
        aria-label={bellLabel(unread, unreadMessages)}
        className="relative flex size-10 items-center justify-center rounded-full text-stone-600 transition-colors hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <Bell className="size-5" aria-hidden="true" />
        {unread > 0 || unreadMessages > 0 ? (
          <span data-testid="unread-dot" className="absolute top-2 right-2.5 size-2.5 rounded-full bg-red-500 ring-2 ring-white" />
        ) : null}
      </button>

      {open ? (
        <div
          className="fixed inset-x-3 top-[4.25rem] z-50 overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-pop sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96"
          role="dialog"
          aria-label="Notifications list"
        >
          <div className="flex items-center justify-between border-b border-stone-100 px-4 py-3">
            <p className="text-sm font-semibold text-stone-900">
              Notifications
              {unread > 0 ? <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs text-brand-700">{unread} new</span> : null}
            </p>
            {notifications.length > 0 ? (
              <button
                type="button"
                onClick={() => {
                  setOpen(false);
                  setConfirmingClear(true);
                }}
                disabled={clearAll.isPending}
                className="rounded-md px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-50"
              >
                Clear All
              </button>
            ) : null}
          </div>
          {unreadMessages > 0 ? (
            <button
              type="button"
              data-testid="bell-messages"
              onClick={() => {
                setOpen(false);
                navigate('/my-bookings');
              }}
              className="block w-full border-b border-stone-100 bg-brand-50/60 px-4 py-3 text-left text-sm font-semibold text-stone-900 hover:bg-stone-50 focus-visible:bg-stone-50 focus-visible:outline-none"
            >
              {unreadMessages === 1 ? '1 unread message' : `${unreadMessages} unread messages`} about your bookings
            </button>
          ) : null}
          <div className="max-h-[min(28rem,70vh)] overflow-y-auto">
            {list.isPending ? (
              <div className="flex justify-center py-10 text-stone-400">
                <Spinner label="Loading notifications" className="size-6" />
              </div>
            ) : notifications.length === 0 ? (
              <div className="flex flex-col items-center gap-2 px-6 py-10 text-center text-stone-500">
                <BellOff className="size-8 text-stone-300" aria-hidden="true" />
                <p className="text-sm font-medium">No notifications</p>
                <p className="text-xs">We&apos;ll let you know when something happens with your account or trips.</p>
              </div>
            ) : (
              <ul className="divide-y divide-stone-100">
                {notifications.map((notification) => (
                  <li key={notification.id}>
                    <button
                      type="button"
                      onClick={() => onPick(notification)}
                      className={clsx(
                        'flex w-full gap-3 px-4 py-3 text-left transition-colors hover:bg-stone-50 focus-visible:bg-stone-50 focus-visible:outline-none',
                        !notification.read && 'bg-brand-50/60',
                      )}
                    >
                      <span
                        aria-hidden="true"
                        className={clsx('mt-1.5 size-2 shrink-0 rounded-full', notification.read ? 'bg-transparent' : 'bg-brand-600')}
                      />
                      <span className="min-w-0 flex-1">
                        <span className={clsx('block text-sm text-stone-900', !notification.read && 'font-semibold')}>
                          {notification.title}
                          {!notification.read ? <span className="sr-only"> (unread)</span> : null}
                        </span>
                        <span className="mt-0.5 block text-sm text-stone-600">{notification.message}</span>
                        <time dateTime={notification.createdAt} title={formatDateTime(notification.createdAt)} className="mt-1 block text-xs text-stone-500">
                          {formatRelativeTime(notification.createdAt)}
                        </time>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirmingClear}
        tone="danger"
        title="Clear all notifications?"
        description="Every notification is deleted for good, read or not."
        confirmLabel="Clear All"
        loadingLabel="Clearing…"
        onConfirm={async () => {
          try {
            await clearAll.mutateAsync();
          } catch (error) {
            notify.error('Clear Failed', messageOf(error, 'Failed to clear notifications. Please try again.'));
            throw error;
          }
        }}
        onClose={() => {
          setConfirmingClear(false);
          button.current?.focus();
        }}
      />
    </div>
  );
}

function bellLabel(unread: number, unreadMessages: number): string {
  const parts = [unread > 0 ? `${unread} unread` : '', unreadMessages > 0 ? `${unreadMessages} unread ${unreadMessages === 1 ? 'message' : 'messages'}` : ''].filter(Boolean);
  return parts.length ? `Notifications (${parts.join(', ')})` : 'Notifications';
}
