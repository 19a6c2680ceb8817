// What Apollo Gateway's telemetry module gets for the packages of its usage telemetry while that is
// off (apollo-telemetry.ts): an empty module, since the telemetry never starts.
export {};
