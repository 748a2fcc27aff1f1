// What happens to the platform settings (events/domain-events.ts).
declare module '../../events/domain-events' {
  interface DomainEvents {
    'settings.changed': { before: Record<string, unknown>; after: Record<string, unknown> };
  }
}

export {};
