// What happens to people's privacy requests, in the words the rest of Karoo reacts to.
import type { CorrectionField } from '@karoo/shared';

declare module '../../events/domain-events' {
  interface DomainEvents {
    /** An administrator answered a correction request (audited; the person is told). */
    'privacy.correction_decided': {
      user: { id: string; username: string };
      requestId: string;
      field: CorrectionField;
      decision: 'approve' | 'decline';
      note: string;
    };
  }
}

declare module '../../jobs/queue' {
  interface JobPayloads {
    /** Builds one person's data export (the ZIP) into the private store and emails them. */
    'privacy.export': { exportId: string };
    /** Deletes the files of exports past their 24 hours. */
    'privacy.exports.expire': Record<string, never>;
  }
}

export {};
