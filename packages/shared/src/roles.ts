// Role readings of document 1 section 6 and decisions.md section 1.
// The username readings are honoured as written; registration reserves those usernames,
// so they only ever match accounts that truly hold the role.
export const ROLES = ['admin', 'host', 'customer'] as const;
export type Role = (typeof ROLES)[number];

export interface RoleBearer {
  username: string;
  role?: string | null;
  user_type?: string | null;
}

export function isAdmin(user: RoleBearer | null | undefined): boolean {
  return !!user && (user.role === 'admin' || user.user_type === 'admin');
}

export function isHost(user: RoleBearer | null | undefined): boolean {
  return (
    !!user &&
    (user.role === 'host' || user.user_type === 'host' || user.username.toLowerCase().startsWith('host'))
  );
}

/** The admin panel's own reading (document 3 section 6): the username contains 'admin'. */
export function canOpenAdminPanel(user: RoleBearer | null | undefined): boolean {
  return isAdmin(user) && user!.username.toLowerCase().includes('admin');
}

/** The playground's own reading: the username contains 'admin' or starts with 'host'. */
export function canOpenPlayground(user: RoleBearer | null | undefined): boolean {
  if (!isAdmin(user)) return false;
  const name = user!.username.toLowerCase();
  return name.includes('admin') || name.startsWith('host');
}

/** Usernames that would satisfy a username reading are reserved at registration. */
export function isReservedUsername(username: string): boolean {
  const name = username.trim().toLowerCase();
  return name.includes('admin') || name.startsWith('host');
}

export function roleLabel(user: RoleBearer | null | undefined): string {
  if (!user) return 'customer';
  if (isAdmin(user)) return 'admin';
  if (isHost(user)) return 'host';
  return user.role || 'customer';
}
