// Test helpers for the API suite. A test file typically does:
//   const t = await createTestApp();                       // own database, app, clock and outbox
//   const { user, headers } = await createSignedInUser(t.app, t.ctx, { role: 'admin' });
//   expectOk(await t.app.inject({ method: 'GET', url: '/api/user/me', headers }));
//   t.clock.advance(DAY); await t.outbox.resetToken(user.email); await t.close();
export * from './app';
export * from './clock';
export * from './db';
export * from './factories';
export * from './files';
export * from './http';
