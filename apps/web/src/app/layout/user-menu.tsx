// The signed-in user's menu: initial, name and role, then Profile Settings, View Earnings (hosts)
// and Sign Out. Keyboard: arrows move between items, Escape closes.
import { isHost, roleLabel, type User } from '@karoo/shared';
import { ChevronDown, LogOut, UserRound, Wallet } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDismiss } from '@/lib/use-dismiss';
import { useAuth } from '@/lib/auth';
import { initialOf } from '@/lib/format';
import { PATHS } from '@/lib/routes';

const itemClass =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm text-stone-700 hover:bg-stone-100 focus:bg-stone-100 focus:outline-none';

export function Avatar({ user, size = 'md' }: { user: User; size?: 'md' | 'lg' }) {
  return (
    <span
      aria-hidden="true"
      className={`flex shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-brand-700 font-bold text-white ${
        size === 'lg' ? 'size-11 text-lg' : 'size-8 text-sm'
      }`}
    >
      {initialOf(user.full_name || user.username)}
    </span>
  );
}

export function UserMenu({ user }: { user: User }) {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const name = user.full_name || user.username;

  useDismiss(open, container, (reason) => {
    setOpen(false);
    if (reason === 'escape') button.current?.focus();
  });

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = event.key === 'ArrowDown' ? (index + 1) % items.length : (index - 1 + items.length) % items.length;
      items[next]?.focus();
    } else if (event.key === 'Escape') {
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  const signOut = async () => {
    setOpen(false);
    await logout();
    navigate(PATHS.home);
  };

  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-haspopup="menu"
        aria-expanded={open}
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 transition-colors hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        {/* Named by its content ("User menu for" and the visible name), so the name a voice user
            reads on screen is the button's name too. */}
        <span className="sr-only">User menu for </span>
        <Avatar user={user} />
        <span className="sr-only max-w-40 text-left leading-tight xl:not-sr-only xl:block">
          <span className="block truncate text-sm font-semibold text-stone-900">{name}</span>
          {/* stone-600: stone-500 is 4.4:1 on the button's hover grey (stone-100). */}
          <span className="block text-xs text-stone-600 capitalize">{roleLabel(user)}</span>
        </span>
        <ChevronDown className="size-4 text-stone-500" aria-hidden="true" />
      </button>

      {open ? (
        <div
          ref={menu}
          role="menu"
          aria-label="Account"
          onKeyDown={onMenuKey}
          className="absolute right-0 z-50 mt-2 w-64 rounded-2xl border border-stone-200 bg-white p-2 shadow-pop"
        >
          <div className="flex items-center gap-3 px-3 py-2.5">
            <Avatar user={user} size="lg" />
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold text-stone-900">{name}</p>
              <p className="text-xs text-stone-500 capitalize">{roleLabel(user)}</p>
            </div>
          </div>
          <div className="my-1 h-px bg-stone-100" />
          <Link role="menuitem" to={PATHS.profile} className={itemClass} onClick={() => setOpen(false)}>
            <UserRound className="size-4 text-stone-500" aria-hidden="true" /> Profile Settings
          </Link>
          {isHost(user) ? (
            <Link role="menuitem" to={PATHS.earnings} className={itemClass} onClick={() => setOpen(false)}>
              <Wallet className="size-4 text-stone-500" aria-hidden="true" /> View Earnings
            </Link>
          ) : null}
          <div className="my-1 h-px bg-stone-100" />
          <button role="menuitem" type="button" className={`${itemClass} text-red-600 hover:bg-red-50 focus:bg-red-50`} onClick={() => void signOut()}>
            <LogOut className="size-4" aria-hidden="true" /> Sign Out
          </button>
        </div>
      ) : null}
    </div>
  );
}
