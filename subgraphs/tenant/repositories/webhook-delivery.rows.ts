// The rows of the webhook delivery log as WebhookDeliveryRepository reads and writes them.

/** One delivery of the log, as reads return it. */
export interface DeliveryRecord {
  id: string;
  eventType: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attemptCount: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** One recorded attempt. */
export interface AttemptRecord {
  deliveryId: string;
  attemptNumber: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** A delivery a job claimed, with its tenant's endpoint (null columns: no configuration any more). */
export interface ClaimedDelivery {
  id: string;
  job_id: string;
  tenant_id: string;
  event_type: string;
  payload: string;
  attempt_count: number;
  url: string | null;
  secret: string | null;
  enabled: boolean | null;
  /** Why the platform disabled the endpoint, when it did. */
  disabled_reason: string | null;
  /** When the event entered the delivery log (delivery lag). */
  created_at: Date;
}

/** One attempt of a claimed delivery, as the batch's bookkeeping records it. */
export interface AttemptOutcome {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** A claimed delivery's next state; `nextJob` null when no attempt follows. */
export interface DeliverySettlement {
  status: 'pending' | 'delivered' | 'failed';
  next: Date | null;
  nextJob: string | null;
  error: string | null;
}

/** A pending delivery that just got a job (deliveries written before they ran on jobs). */
export interface AdoptedDelivery {
  id: string;
  job_id: string;
  tenant_id: string;
  next_attempt_at: Date;
}

/** A delivery whose job came up and that nobody holds: a candidate for a slot of its endpoint. */
export interface DueDelivery {
  id: string;
  job_id: string;
  tenant_id: string;
}

/** A delivery put off without an attempt: its new job, due `at`. */
export interface Deferral {
  id: string;
  job_id: string;
  tenant_id: string;
  next_job: string;
  at: Date;
}

/** The delivery log's backlog at one moment. */
export interface WebhookQueueStats {
  /** Deliveries still pending (due now or waiting for a retry). */
  pending: number;
  /** Seconds the oldest pending delivery has waited since it entered the log; 0 when none. */
  oldestPendingSeconds: number;
  /** Seconds the most overdue delivery is past its due time: how far the dispatchers are behind; 0 when none. */
  overdueSeconds: number;
}
