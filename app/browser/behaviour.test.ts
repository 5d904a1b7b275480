// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { defineBehaviour } from './behaviour.ts';

afterEach(() => document.body.replaceChildren());

function counting() {
  const running = new Map<Element, number>();
  const start = defineBehaviour('.widget', (element) => {
    running.set(element, (running.get(element) ?? 0) + 1);
    return () => running.set(element, (running.get(element) ?? 0) - 1);
  });
  return { running, start };
}

describe('defineBehaviour (static components started by a page)', () => {
  it('sets up every matching element of the document once, however often it is started', () => {
    document.body.innerHTML = '<div class="widget"></div><p><span class="widget"></span></p>';
    const { running, start } = counting();
    const stop = start();
    start();
    start(document.body);
    expect([...running.values()]).toEqual([1, 1]);
    stop();
    expect([...running.values()]).toEqual([0, 0]);
    // Stopped elements can be started again.
    start();
    expect([...running.values()]).toEqual([1, 1]);
  });

  it('a component starts it on its own root element, and on nothing outside it', () => {
    document.body.innerHTML = '<div class="widget" id="own"></div><div class="widget"></div>';
    const { running, start } = counting();
    const stop = start(document.getElementById('own')!);
    expect([...running.entries()].map(([element, count]) => [element.id, count])).toEqual([
      ['own', 1],
    ]);
    // A second stop does nothing more.
    stop();
    stop();
    expect(running.get(document.getElementById('own')!)).toBe(0);
  });
});
