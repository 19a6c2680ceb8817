import pino from 'pino';
import { Lifecycle } from '../../../gateway/lifecycle';

/** A start-up step that finishes when the test says so. */
function gate<T>(value: T) {
  let open!: () => void;
  const opened = new Promise<T>((resolve) => (open = () => resolve(value)));
  return { opened, open };
}

const settled = (promise: Promise<unknown>) => Promise.race([promise.then(() => true, () => true), new Promise((resolve) => setImmediate(() => resolve(false)))]);

describe('the start-up lifecycle', () => {
  const lifecycles: Lifecycle[] = [];
  const create = () => {
    const exits: number[] = [];
    const life = new Lifecycle(pino({ level: 'silent' }), (code) => exits.push(code));
    lifecycles.push(life);
    return { life, exits };
  };
  afterEach(() => lifecycles.splice(0).forEach((life) => life.release()));

  it('a stop during a step waits for it, starts nothing after, and undoes every step in reverse order', async () => {
    const { life, exits } = create();
    const undone: string[] = [];
    await life.step(async () => 'database', async (name) => undone.push(name));
    const slow = gate('subgraphs');
    const during = life.step(() => slow.opened, async (name) => undone.push(name));
    const stopped = life.stop('SIGTERM', 0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(undone).toEqual([]);

    slow.open();
    await stopped;
    expect(undone).toEqual(['subgraphs', 'database']);
    expect(exits).toEqual([0]);
    // The interrupted start-up goes no further: neither the step under way nor a later one returns.
    expect(await settled(during)).toBe(false);
    const later = jest.fn(async () => 'http');
    expect(await settled(life.step(later))).toBe(false);
    expect(later).not.toHaveBeenCalled();
  });

  it('a signal stops it as stop() does, once', async () => {
    const { life, exits } = create();
    const undo = jest.fn(async () => undefined);
    await life.step(async () => 'database', undo);
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGINT', 'SIGINT');
    await life.stop('again', 0);
    expect(undo).toHaveBeenCalledTimes(1);
    expect(exits).toEqual([0]);
  });

  it('a step that fails undoes the earlier ones and throws its error; no exit of its own', async () => {
    const { life, exits } = create();
    const undone: string[] = [];
    await life.step(async () => 'database', async (name) => undone.push(name));
    await expect(life.step(() => Promise.reject(new Error('port taken')), async () => undone.push('never'))).rejects.toThrow('port taken');
    expect(undone).toEqual(['database']);
    expect(exits).toEqual([]);
  });

  it('an undo that fails does not keep the rest from running, and the exit code says so', async () => {
    const { life, exits } = create();
    const undone: string[] = [];
    await life.step(async () => 'database', async (name) => undone.push(name));
    await life.step(async () => 'metrics', async () => Promise.reject(new Error('close failed')));
    await life.stop('SIGTERM', 0);
    expect(undone).toEqual(['database']);
    expect(exits).toEqual([1]);
  });

  it('release() hands the signals over: a signal after it stops nothing', async () => {
    const { life, exits } = create();
    const undo = jest.fn(async () => undefined);
    await life.step(async () => 'database', undo);
    life.release();
    const keepAlive = () => undefined; // without any listener the signal would end the test process
    process.on('SIGTERM', keepAlive);
    process.emit('SIGTERM', 'SIGTERM');
    process.off('SIGTERM', keepAlive);
    await new Promise((resolve) => setImmediate(resolve));
    expect(undo).not.toHaveBeenCalled();
    expect(exits).toEqual([]);
  });
});
