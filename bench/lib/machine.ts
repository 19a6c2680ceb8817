import os from 'node:os';

/** The hardware and runtime a result was measured on: numbers from different machines do not compare. */
export interface Machine {
  cores: number;
  model: string;
  memoryGiB: number;
  node: string;
  platform: string;
}

/** Describes this machine. */
export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cores: cpus.length,
    model: cpus[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  };
}

/** One line, e.g. `2 cores, Intel Xeon ..., 23.4 GiB, Node v20.20.2, linux 6.1 x64`. */
export function formatMachine(machine: Machine): string {
  return `${machine.cores} cores, ${machine.model}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}`;
}
