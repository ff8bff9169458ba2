// Imported first by main.ts: where the page may not use localStorage (the embeddable board in
// another site's frame, when the browser blocks third-party storage, reading it throws), the
// page keeps its settings in memory for its lifetime instead of failing to start.
function usable(): boolean {
  try {
    return !!window.localStorage;
  } catch {
    return false;
  }
}

if (!usable()) {
  const items = new Map<string, string>();
  const memory: Storage = {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, String(v)),
  };
  Object.defineProperty(window, 'localStorage', { value: memory, configurable: true });
}

export {};
