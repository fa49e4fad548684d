// Service worker of Optimus Table: the whole site, offline after one visit.
//
// build.py writes this file to dist/sw.js after two lines of its own:
//   const BUILD = "<id>";          // a hash of every file of the build
//   const FILES = ["./", ...];     // those files, relative to this worker
// Every file but the page itself has a content hash in its name, so a build's
// files never change under the same URL.  The worker keeps one build per cache,
// named after BUILD, and serves the page and its files from the cache of the
// build it was made with.  A new deploy changes BUILD, hence this file: the
// browser installs the new worker beside the old one, which keeps serving the
// open pages until the page asks the new one to take over (index.html decides
// when); the new one then deletes the old build's cache.  See docs/embed.md.
"use strict";

const SCOPE = new URL("./", self.location.href);
// Several copies of the site may live on one origin (GitHub Pages project sites):
// each keeps its caches under its own folder's name and deletes only those.
const PREFIX = "optimus-table " + SCOPE.pathname + " ";
const CACHE = PREFIX + BUILD;
const PAGE = SCOPE.href;
const PATHS = new Set(FILES.map((file) => new URL(file, SCOPE).pathname));

async function precache() {
  const cache = await caches.open(CACHE);
  try {
    await Promise.all(
      FILES.map(async (file) => {
        const url = new URL(file, SCOPE).href;
        // Hashed files may come from the HTTP cache (a name is one content);
        // the page is revalidated, and must be this build's page.
        const response = await fetch(url, { cache: url === PAGE ? "no-cache" : "default" });
        if (!response.ok) throw new Error(url + ": HTTP " + response.status);
        if (url === PAGE) {
          const text = await response.clone().text();
          if (!text.includes('name="optimus-build" content="' + BUILD + '"')) {
            throw new Error("the site was redeployed during the install; trying again later");
          }
        }
        await cache.put(url, response);
      }),
    );
  } catch (error) {
    await caches.delete(CACHE); // never keep half a build
    throw error; // the install fails; the browser tries again on a later visit
  }
}

async function dropOldBuilds() {
  const names = await caches.keys();
  await Promise.all(
    names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)),
  );
}

async function respond(request, isPage) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(isPage ? PAGE : request, { ignoreSearch: isPage, ignoreVary: true });
  return hit || fetch(request);
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(dropOldBuilds());
});

self.addEventListener("message", (event) => {
  if (event.data === "optimus-activate-update") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin) return;
  const isPage =
    request.mode === "navigate" && (url.href.split(/[?#]/)[0] === PAGE || url.pathname === SCOPE.pathname + "index.html");
  if (!isPage && !PATHS.has(url.pathname)) return; // not part of the build: the network's
  event.respondWith(respond(request, isPage));
});
