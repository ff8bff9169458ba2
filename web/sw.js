// Hisha's service worker (built as /sw.js by pwa-plugin.ts, which puts the build's file list in
// SHELL and a hash of it in VERSION): the app shell (the page, its hashed JS and CSS, the icons
// and the manifest) is cached at install, so the app loads with the network cut after the first
// visit; a page load asks the network first and falls back to the cached page; hashed assets and
// anything under /wasm/ (the browser's engine, cached when first fetched) come from the cache
// first. The API (/api/) is never cached: without the network its calls fail and the page says so.
const VERSION = '__HISHA_VERSION__';
const SHELL = __HISHA_SHELL__;
const CACHE = `hisha-shell-${VERSION}`;
const RUNTIME = 'hisha-wasm';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('hisha-shell-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function fromCacheFirst(request, cacheName) {
  const hit = await caches.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok && cacheName) (await caches.open(cacheName)).put(request, res.clone());
  return res;
}

async function page(request) {
  try {
    const res = await fetch(request);
    if (res.ok) (await caches.open(CACHE)).put('/index.html', res.clone());
    return res;
  } catch {
    return (await caches.match('/index.html')) || Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (req.mode === 'navigate') event.respondWith(page(req));
  else if (url.pathname.startsWith('/wasm/')) event.respondWith(fromCacheFirst(req, RUNTIME));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(fromCacheFirst(req, CACHE));
  else event.respondWith(fetch(req).catch(async () => (await caches.match(req)) || Response.error()));
});
