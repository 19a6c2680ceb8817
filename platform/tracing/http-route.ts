import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';

/**
 * Names the route of the request whose HTTP span is active here, as a template (`/patients/{patient_id}`):
 * the http instrumentation then sets `http.route` and names the span `GET /patients/{patient_id}`
 * when the response closes. Call it before then (on `finish` at the latest). The raw path is never
 * recorded (instrumentations.ts), so this is the only path a server span shows.
 */
export function setHttpRoute(route: string): void {
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP) metadata.route = route;
}
