import type { Application } from 'express';

interface RouterLayer {
  route?: { methods: Record<string, boolean | undefined> };
  match(path: string): boolean;
}

/** The methods the app's routes answer on a path (GET brings HEAD), read from the Express router when asked. */
export function allowedMethodsOf(app: Application): (path: string) => string[] {
  return (path) => {
    const { stack } = (app as unknown as { router: { stack: RouterLayer[] } }).router;
    const methods = new Set<string>();
    for (const layer of stack) {
      if (!layer.route || !layer.match(path)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') methods.add(method.toUpperCase());
    }
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
