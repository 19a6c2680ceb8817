/*
 * Apollo Gateway exports anonymous usage metrics (host, OS, CPU and memory figures) to Apollo's
 * servers every hour unless APOLLO_TELEMETRY_DISABLED is set; a platform holding patients' and
 * payment data sends nothing anywhere unasked, so it is set here unless the operator has set it
 * (Apollo's own, public switch: written, not read, before the gateway is built). Imported first by
 * the modules that load @apollo/gateway. The gateway still loads the telemetry's packages; they
 * stay idle (bench/RESULTS.md, "Speed plumbing", measured what unloading them would save).
 */
process.env.APOLLO_TELEMETRY_DISABLED ??= 'true';

export {};
