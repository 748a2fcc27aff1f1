// Document 1 section 6 and decisions.md section 1: who counts as host and admin, and the
// username readings the client honours (made harmless by reserving those usernames).
import { describe, expect, it } from 'vitest';
import { canOpenAdminPanel, canOpenPlayground, isAdmin, isHost, isReservedUsername, roleLabel } from './roles';

describe('isHost', () => {
  it.each([
    [{ username: 'thabo', role: 'host' }, true],
    [{ username: 'thabo', role: 'customer', user_type: 'host' }, true],
    [{ username: 'host_thabo', role: 'customer' }, true],
    [{ username: 'HostLerato' }, true],
    [{ username: 'ghost', role: 'customer' }, false],
    [{ username: 'sipho', role: 'customer', user_type: null }, false],
    [{ username: 'admin', role: 'admin' }, false],
  ])('%o -> %s', (user, expected) => {
    expect(isHost(user)).toBe(expected);
  });

  it('is false for nobody', () => {
    expect(isHost(null)).toBe(false);
    expect(isHost(undefined)).toBe(false);
  });
});

describe('isAdmin', () => {
  it.each([
    [{ username: 'ops', role: 'admin' }, true],
    [{ username: 'ops', role: 'customer', user_type: 'admin' }, true],
    [{ username: 'admin', role: 'customer' }, false],
    [{ username: 'host_thabo', role: 'host' }, false],
  ])('%o -> %s (never from the username alone)', (user, expected) => {
    expect(isAdmin(user)).toBe(expected);
  });

  it('is false for nobody', () => {
    expect(isAdmin(null)).toBe(false);
  });
});

describe('admin panel reading (username contains admin) and playground reading (admin or starts with host)', () => {
  it('opens the panel for an admin whose username contains admin, in any case', () => {
    expect(canOpenAdminPanel({ username: 'admin', role: 'admin' })).toBe(true);
    expect(canOpenAdminPanel({ username: 'SiteAdmin', user_type: 'admin' })).toBe(true);
  });

  it('keeps the panel closed when either reading fails', () => {
    expect(canOpenAdminPanel({ username: 'admin', role: 'customer' })).toBe(false);
    expect(canOpenAdminPanel({ username: 'ops', role: 'admin' })).toBe(false);
    expect(canOpenAdminPanel(null)).toBe(false);
  });

  it('opens the playground for admins named admin... or host...', () => {
    expect(canOpenPlayground({ username: 'admin', role: 'admin' })).toBe(true);
    expect(canOpenPlayground({ username: 'host_ops', role: 'admin' })).toBe(true);
  });

  it('keeps the playground closed for non-admins whatever their name, and for other admins', () => {
    expect(canOpenPlayground({ username: 'host_thabo', role: 'host' })).toBe(false);
    expect(canOpenPlayground({ username: 'admin', role: 'customer' })).toBe(false);
    expect(canOpenPlayground({ username: 'ops', role: 'admin' })).toBe(false);
    expect(canOpenPlayground(undefined)).toBe(false);
  });
});

describe('reserved usernames', () => {
  it.each(['admin', 'Admin', 'theadmin', 'sysADMINs', 'host', 'HOST_x', 'hosting', '  host'])('%s is reserved', (name) => {
    expect(isReservedUsername(name)).toBe(true);
  });

  it.each(['ghost', 'my_host', 'adm_in', 'sipho'])('%s is free', (name) => {
    expect(isReservedUsername(name)).toBe(false);
  });
});

describe('roleLabel', () => {
  it('names admin, host, then the role or customer by default', () => {
    expect(roleLabel({ username: 'ops', role: 'admin' })).toBe('admin');
    expect(roleLabel({ username: 'thabo', role: 'host' })).toBe('host');
    expect(roleLabel({ username: 'sipho', role: 'customer' })).toBe('customer');
    expect(roleLabel({ username: 'sipho' })).toBe('customer');
    expect(roleLabel(null)).toBe('customer');
  });
});
