import { describe, expect, it } from 'vitest';
import { captureLogger, eventually } from '../testing/test-support.server.ts';
import { createStoreLoop } from './store-loop.server.ts';

describe('a loop that looks at the store', () => {
  it('joins a look under way rather than starting a second', async () => {
    let looks = 0;
    let finish: (value: number) => void = () => undefined;
    const loop = createStoreLoop({
      name: 'Test loop',
      log: captureLogger().logger,
      intervalMs: 60_000,
      look: () => {
        looks += 1;
        return new Promise<number>((resolve) => (finish = resolve));
      },
    });
    const first = loop.runOnce();
    const second = loop.runOnce();
    finish(7);
    expect(await Promise.all([first, second])).toEqual([7, 7]);
    expect(looks).toBe(1);
    const third = loop.runOnce();
    finish(8);
    expect(await third).toBe(8);
    expect(looks).toBe(2);
  });

  it('says once that the store is out of reach, once that it is back, and stops', async () => {
    const captured = captureLogger();
    let looks = 0;
    const loop = createStoreLoop({
      name: 'Test loop',
      log: captured.logger,
      intervalMs: 1,
      look: () => {
        looks += 1;
        return looks <= 4
          ? Promise.reject(new Error('database is locked'))
          : Promise.resolve(looks);
      },
    });
    const said = (text: string) =>
      captured.entries().filter((entry) => String(entry.msg) === text).length;
    loop.start();
    await eventually(() => expect(looks).toBeGreaterThanOrEqual(7));
    await loop.stop();
    const stoppedAt = looks;
    expect(said('Test loop cannot reach the lead store')).toBe(1);
    expect(said('Test loop reaches the lead store again')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(looks).toBe(stoppedAt);
  });
});
