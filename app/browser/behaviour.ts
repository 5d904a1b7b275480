/**
 * The browser side of a component that is static HTML (on the
 * Astro site only the forms and the blog search are React islands). Such a
 * component's behaviour is a small module that the page's module script
 * (app/browser/site.ts) starts on the HTML already there; a component that is
 * also rendered inside an island (Illustration, in the blog list) starts it
 * on its own element too.
 */

/**
 * The elements of `scope` that match `selector`, the scope itself included:
 * a component can start its behaviour on its own root element.
 */
export function elementsIn<T extends Element>(scope: ParentNode, selector: string): T[] {
  const found = [...scope.querySelectorAll<T>(selector)];
  if (scope instanceof Element && scope.matches(selector)) found.unshift(scope as T);
  return found;
}

/**
 * A `startX(scope = document)` function: it sets up `setUp` on every element
 * matching `selector` in the scope that it is not already running on (so
 * starting twice, or a page and a component both starting it, sets nothing
 * up twice), and returns the function that stops what this call started.
 */
export function defineBehaviour<T extends Element>(
  selector: string,
  setUp: (element: T) => () => void,
): (scope?: ParentNode) => () => void {
  const running = new WeakSet<Element>();
  return (scope = document) => {
    const stops: (() => void)[] = [];
    for (const element of elementsIn<T>(scope, selector)) {
      if (running.has(element)) continue;
      running.add(element);
      const stop = setUp(element);
      stops.push(() => {
        running.delete(element);
        stop();
      });
    }
    return () => {
      for (const stop of stops.splice(0)) stop();
    };
  };
}
