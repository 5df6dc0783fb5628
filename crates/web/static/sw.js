// @ts-check
// The page's service worker (served as /sw.js by the server, src/sw.rs,
// which fills in the two values below): after one visit the page, its
// files and the WebAssembly engine are kept in the browser, so that a game
// against the engine in the browser and the analysis board work with the
// network cut.
//
// - Install: every file of the page (FILES: "/" and each embedded file,
//   the WebAssembly build under its hashed names) is kept in the cache of
//   this VERSION (a hash of all of them: a new build is a new worker).
// - Activate: the caches of other versions are dropped.
// - Fetch: the page and its files are asked of the network first, as
//   without the worker, and taken from the cache when the network fails
//   (a page path, "/g/..." or "/games", gets the kept "/"). The API
//   (/api/...) and anything not of this origin are left alone: never
//   cached, never answered here.

/** @type {string} */
const VERSION = "__SPRINGBOARD_VERSION__";
/** @type {string[]} */
const FILES = /** @type {any} */ ("__SPRINGBOARD_FILES__");
const CACHE = `springboard-${VERSION}`;

/** @type {any} */
const sw = self;

sw.addEventListener("install", (/** @type {any} */ ev) => {
  ev.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Each file afresh from the server (not the browser's HTTP cache).
      await cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })));
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener("activate", (/** @type {any} */ ev) => {
  ev.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("springboard-") && name !== CACHE) await caches.delete(name);
      }
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener("fetch", (/** @type {any} */ ev) => {
  /** @type {Request} */
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  const page = req.mode === "navigate";
  if (!page && !url.pathname.startsWith("/static/")) return;
  ev.respondWith(
    fetch(req).catch(async (err) => {
      const cache = await caches.open(CACHE);
      const kept = await cache.match(page ? "/" : url.pathname);
      if (kept) return kept;
      throw err;
    }),
  );
});
