// The top navigation (document 1): links by role and status, the notification bell, the user menu
// or a Sign In button, and below 640 px a menu button that opens the same links as a panel.
import { isHost, roleLabel } from '@karoo/shared';
import { clsx } from 'clsx';
import { LogOut, Menu, UserRound, Wallet, X } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { ButtonLink } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/routes';
import { navLinks } from './nav-links';
import { Avatar, UserMenu } from './user-menu';

const desktopLink = ({ isActive }: { isActive: boolean }) =>
  clsx(
    'rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
    isActive ? 'bg-brand-50 text-brand-700' : 'text-stone-600 hover:bg-stone-100 hover:text-stone-900',
  );

const mobileLink = ({ isActive }: { isActive: boolean }) =>
  clsx(
    'flex items-center gap-3 rounded-xl px-3 py-3 text-base font-medium',
    isActive ? 'bg-brand-50 text-brand-700' : 'text-stone-700 hover:bg-stone-100',
  );

export function Navbar() {
  const { user, logout, isSessionKnown } = useAuth();
  const navigate = useNavigate();
  const [mobileOpen, setMobileOpen] = useState(false);
  const links = navLinks(user);
  const closeMobile = () => setMobileOpen(false);

  const signOut = async () => {
    closeMobile();
    await logout();
    navigate(PATHS.home);
  };

  // The bar is opaque: text on a see-through bar takes the colour of whatever scrolls under it
  // (the role label once read 3.54:1 over the verification banner's button).
  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 px-4 sm:px-6 lg:flex-nowrap lg:px-8">
        <Link
          to={PATHS.home}
          aria-label="Karoo home"
          className="order-1 flex h-16 items-center rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <Logo />
        </Link>

        {/* One navigation: a second row between 640 and 1024 px, inline from 1024 px, in the mobile panel below 640 px. */}
        <nav
          aria-label="Main"
          className="order-3 -mx-2 hidden w-full gap-1 overflow-x-auto pb-2 sm:flex lg:order-2 lg:mx-0 lg:w-auto lg:flex-1 lg:pb-0"
        >
          {links.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.end} className={desktopLink}>
              {link.label}
            </NavLink>
          ))}
        </nav>

        <div className="order-2 ml-auto flex h-16 items-center gap-1.5 lg:order-3 lg:ml-0">
          {user ? <NotificationBell /> : null}
          {user ? (
            <div className="hidden sm:block">
              <UserMenu user={user} />
            </div>
          ) : isSessionKnown ? (
            <ButtonLink to={PATHS.login} size="sm">
              Sign In
            </ButtonLink>
          ) : (
            // A server-rendered page before it hydrates: who is signed in is not known yet, so the
            // corner keeps the button's place but shows nothing, rather than offer Sign In to someone
            // signed in (decision 044); the same size, so nothing moves when it appears.
            <ButtonLink to={PATHS.login} size="sm" className="invisible" aria-hidden="true" tabIndex={-1} data-testid="session-pending">
              Sign In
            </ButtonLink>
          )}
          <button
            type="button"
            onClick={() => setMobileOpen((v) => !v)}
            aria-expanded={mobileOpen}
            aria-controls="mobile-menu"
            aria-label={mobileOpen ? 'Close menu' : 'Open menu'}
            className="flex size-10 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:hidden"
          >
            {mobileOpen ? <X className="size-6" aria-hidden="true" /> : <Menu className="size-6" aria-hidden="true" />}
          </button>
        </div>
      </div>

      {mobileOpen ? (
        <div id="mobile-menu" className="max-h-[calc(100dvh-4rem)] overflow-y-auto border-t border-stone-200 bg-white px-4 pt-3 pb-6 sm:hidden">
          <nav aria-label="Mobile" className="flex flex-col gap-1">
            {links.map((link) => (
              <NavLink key={link.to} to={link.to} end={link.end} className={mobileLink} onClick={closeMobile}>
                {link.label}
              </NavLink>
            ))}
          </nav>
          <div className="mt-4 border-t border-stone-200 pt-4">
            {user ? (
              <>
                <div className="flex items-center gap-3 px-3 pb-3">
                  <Avatar user={user} size="lg" />
                  <div className="min-w-0">
                    <p className="truncate font-semibold text-stone-900">{user.full_name || user.username}</p>
                    <p className="text-sm text-stone-500 capitalize">{roleLabel(user)}</p>
                  </div>
                </div>
                <NavLink to={PATHS.profile} className={mobileLink} onClick={closeMobile}>
                  <UserRound className="size-5 text-stone-500" aria-hidden="true" /> Profile Settings
                </NavLink>
                {isHost(user) ? (
                  <NavLink to={PATHS.earnings} className={mobileLink} onClick={closeMobile}>
                    <Wallet className="size-5 text-stone-500" aria-hidden="true" /> View Earnings
                  </NavLink>
                ) : null}
                <button
                  type="button"
                  onClick={() => void signOut()}
                  className="flex w-full items-center gap-3 rounded-xl px-3 py-3 text-left text-base font-medium text-red-600 hover:bg-red-50"
                >
                  <LogOut className="size-5" aria-hidden="true" /> Sign Out
                </button>
              </>
            ) : (
              <ButtonLink to={PATHS.register} block size="lg" variant="secondary" onClick={closeMobile}>
                Create an account
              </ButtonLink>
            )}
          </div>
        </div>
      ) : null}
    </header>
  );
}
