/**
 * Cooperative long computations. Heavy work (validating a pack, building its indexes) is written
 * once as a generator that yields every few hundred records. runSync drives it straight through
 * (command-line checks, tests); runAsync drives it in time slices and gives the event loop back
 * between slices, so a reload of a large pack never stalls the requests being served meanwhile.
 */
export type Steps<T> = Generator<void, T, void>;

export function runSync<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function runAsync<T>(steps: Steps<T>, sliceMs = 15): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
}

/** Every `every` calls, true: `if (tick()) yield;` inside a loop. */
export function ticker(every = 256) {
  let n = 0;
  return () => ++n % every === 0;
}
