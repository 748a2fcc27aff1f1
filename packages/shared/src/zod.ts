// The zod every schema of this package is built with. In a browser zod is told not to compile
// schemas: its compiler uses `new Function`, and even asking whether it may is an `eval` that the
// web app's content security policy refuses and reports. zod decides when a schema is created, so
// this must run before any schema exists: every module here imports `z` from this file, never from
// 'zod'. The API (no `document`) keeps the compiler, which is faster for the server.
import { config, z } from 'zod';

// `globalThis.document` (not a bare `document`): this package is typed for Node and the browser alike.
if (typeof (globalThis as { document?: unknown }).document !== 'undefined') config({ jitless: true });

export { z };
