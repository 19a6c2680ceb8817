/** The tenant's settings as clients see them: every key present, defaults filled in. */
export interface TenantSettings {
  /** Hours before an appointment when the reminder goes out; 0 turns reminders off. */
  appointmentReminderHours: number;
  /** Whether patients get an e-mailed receipt after a payment. */
  sendReceiptEmails: boolean;
  /** The note template new notes start from (a notes-subgraph id; its existence is checked there, not here). */
  defaultNoteTemplateId: string | null;
}

/** What the `settings` jsonb column holds: only keys a tenant has set. */
export type StoredTenantSettings = Partial<TenantSettings>;

/** Defaults of every setting; a key added here reaches every tenant without a data migration. */
export const DEFAULT_TENANT_SETTINGS: Readonly<TenantSettings> = {
  appointmentReminderHours: 24,
  sendReceiptEmails: true,
  defaultNoteTemplateId: null,
};

/** Upper bound of `appointmentReminderHours`: two weeks. */
export const MAX_REMINDER_HOURS = 336;

/** The effective settings: stored keys over the defaults; unknown stored keys are dropped. */
export function effectiveSettings(stored: StoredTenantSettings | null | undefined): TenantSettings {
  const merged = { ...DEFAULT_TENANT_SETTINGS };
  for (const key of Object.keys(DEFAULT_TENANT_SETTINGS) as (keyof TenantSettings)[]) {
    if (stored && stored[key] !== undefined) (merged as Record<string, unknown>)[key] = stored[key];
  }
  return merged;
}
