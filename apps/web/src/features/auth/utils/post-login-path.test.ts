import { describe, expect, it } from 'vitest';
import { postLoginPath } from './post-login-path';

describe('postLoginPath', () => {
  it('returns to the page a guard stopped the user at', () => {
    expect(postLoginPath({ username: 'sipho', role: 'customer' }, { pathname: '/profile', search: '?tab=1', hash: '' })).toBe('/profile?tab=1');
  });

  it('sends admins to /admin, hosts to /host-dashboard and others to /cars', () => {
    expect(postLoginPath({ username: 'admin', role: 'admin' })).toBe('/admin');
    expect(postLoginPath({ username: 'thabo', role: 'host' })).toBe('/host-dashboard');
    expect(postLoginPath({ username: 'sipho', role: 'customer' })).toBe('/cars');
  });

  it('never returns to the sign-in pages themselves', () => {
    expect(postLoginPath({ username: 'sipho', role: 'customer' }, { pathname: '/login', search: '', hash: '' })).toBe('/cars');
  });
});
