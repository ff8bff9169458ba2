// Hisha's service worker (built as /sw.js by pwa-plugin.ts, which puts the build's file list in
// SHELL and a hash of it in VERSION): the app shell (the page, its hashed JS and CSS, the icons
// and the manifest) is cached at install, so the app loads with the network cut after the first
// visit; a page load asks the network first and falls back to the cached page, and so do the
// files under /wasm/ (the browser's engine: fixed names, so a new build's must replace them; the
// server's ETags make asking cheap), kept when fetched; hashed assets come from the cache first.
// The API (/api/) is never cached: without the network its calls fail and the page says so.
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
  if (res.ok) (await caches.open(cacheName)).put(request, res.clone());
  return res;
}

// The network first, keeping what it gives under `key` in `cacheName`; the cached copy without it.
async function fromNetworkFirst(request, cacheName, key = request) {
  try {
    const res = await fetch(request);
    if (res.ok) (await caches.open(cacheName)).put(key, res.clone());
    return res;
  } catch {
    return (await caches.match(key)) || Response.error();
  }
}

// HEAD of a /wasm/ file (the page asks whether the server ships the engine): without the network,
// the cached file's headers.
async function headOfCached(request) {
  try {
    return await fetch(request);
  } catch {
    const hit = await caches.match(request.url);
    return hit ? new Response(null, { status: hit.status, headers: hit.headers }) : Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (req.method === 'HEAD' && url.pathname.startsWith('/wasm/')) return event.respondWith(headOfCached(req));
  if (req.method !== 'GET') return;
  if (req.mode === 'navigate') event.respondWith(fromNetworkFirst(req, CACHE, '/index.html'));
  else if (url.pathname.startsWith('/wasm/')) event.respondWith(fromNetworkFirst(req, RUNTIME));
  else if (url.pathname.startsWith('/assets/')) event.respondWith(fromCacheFirst(req, CACHE));
  else event.respondWith(fetch(req).catch(async () => (await caches.match(req)) || Response.error()));
});
