// The page's scripts of <head> (index.html loads this file, blocking, first):
// they must run before the body is drawn and before PyScript starts.
// No inline script: the page's Content-Security-Policy allows scripts
// from the site's own origin only (docs/embed.md).

// The page's language, chosen before anything is drawn: a link's ?lang=pt|ca|en,
// else the one the player chose before (kept in this browser when it allows),
// else the browser's languages (pt* -> pt-BR, ca* -> ca, otherwise English).
// <html lang> and data-lang follow; web/page.js, at the end of <body>, translates.
(function () {
  "use strict";
  var TAGS = { en: "en", pt: "pt-BR", ca: "ca" };
  function code(value) {
    var key = String(value || "").trim().toLowerCase().replace("_", "-").split("-")[0];
    return Object.prototype.hasOwnProperty.call(TAGS, key) ? key : null;
  }
  var chosen = null, asked = null;
  try { asked = new URLSearchParams(location.search).get("lang"); } catch (error) {}
  chosen = code(asked);
  if (!chosen) {
    try { chosen = code(localStorage.getItem("optimus-table.lang")); } catch (error) {}
  }
  if (!chosen) {
    var list = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
    for (var i = 0; i < list.length && !chosen; i++) chosen = code(list[i]);
  }
  chosen = chosen || "en";
  var root = document.documentElement;
  root.lang = TAGS[chosen];
  root.setAttribute("data-lang", chosen);
  if (asked !== null && code(asked) === null) root.setAttribute("data-lang-refused", String(asked).slice(0, 40));
})();

// The page needs no storage to start.  PyScript opens an IndexedDB database
// (its package cache) and cannot start when the browser refuses it: an
// iframe on another site with third-party storage blocked, a sandbox without
// allow-same-origin, site data blocked.  Then the open falls back to a
// database in memory, lasting as long as the page, and <html> gets
// data-storage="memory".  Every open that succeeds is left untouched.
(function () {
  "use strict";
  var real = null;
  try { real = window.indexedDB || null; } catch (error) {}  // may throw in a sandbox
  var databases = {};
  function answer(compute) {  // an IDBRequest-like object that succeeds on the next task
    var request = { result: undefined, error: null, readyState: "pending" };
    setTimeout(function () {
      request.result = compute();
      request.readyState = "done";
      if (request.onsuccess) request.onsuccess({ type: "success", target: request });
    });
    return request;
  }
  function memoryDatabase(name) {
    var stores = databases[name] || (databases[name] = {});
    function store(storeName) {
      var data = stores[storeName] || (stores[storeName] = new Map());
      return {
        name: storeName,
        count: function () { return answer(function () { return data.size; }); },
        clear: function () { return answer(function () { data.clear(); }); },
        delete: function (key) { return answer(function () { data.delete(key); }); },
        get: function (key) { return answer(function () { return data.get(key); }); },
        getKey: function (key) { return answer(function () { return data.has(key) ? key : undefined; }); },
        getAllKeys: function () { return answer(function () { return Array.from(data.keys()); }); },
        put: function (value, key) { return answer(function () { data.set(key, value); return key; }); }
      };
    }
    return {
      name: name,
      objectStoreNames: Object.keys(stores),
      createObjectStore: function (storeName) { return store(storeName); },
      transaction: function () { return { objectStore: store }; },
      close: function () {}
    };
  }
  function inMemory(name) {  // an open request answered by a database in memory
    document.documentElement.setAttribute("data-storage", "memory");
    return answer(function () { return memoryDatabase(name); });
  }
  var factory = {
    open: function (name) {
      var request;
      try {
        request = real.open.apply(real, arguments);
      } catch (error) {  // refused at once (no indexedDB, SecurityError)
        return inMemory(name);
      }
      // Refused later ("The user denied permission..."): answer in memory instead.
      // Added before the caller's onerror, so that handler never sees the error.
      request.addEventListener("error", function (event) {
        event.stopImmediatePropagation();
        event.preventDefault();
        var memory = inMemory(name);
        memory.onsuccess = function (success) { if (request.onsuccess) request.onsuccess(success); };
      });
      return request;
    },
    deleteDatabase: function (name) {
      delete databases[name];
      try { return real.deleteDatabase(name); } catch (error) { return answer(function () {}); }
    }
  };
  try {
    Object.defineProperty(window, "indexedDB", { value: factory, configurable: true });
  } catch (error) {}
})();

// Failures of the files the boot needs, seen from the very start of the page (a
// preload may fail before the body is parsed); web/page.js says them to the player
// (window.optimusBootFailure, given the ones seen before it as optimusBootFailures).
(function () {
  "use strict";
  var seen = [];
  window.optimusBootFailures = seen;
  function report(kind, detail) {
    if (window.optimusBootFailure) window.optimusBootFailure(kind, detail);
    else seen.push([kind, detail]);
  }
  // A resource of an element failed (such errors do not bubble: this listener
  // captures them).  The PyScript loader is fatal, and so is a file the page
  // preloads for the boot (Chromium fires the error of a `modulepreload` that
  // fails: Pyodide's and PyScript's modules; a `preload` as fetch answered 404
  // fires none, and its consumer reports it).
  addEventListener("error", function (event) {
    var target = event.target;
    if (!target || target === window || target.nodeType !== 1) return;
    if (target.hasAttribute("data-boot-loader")) report("loader", target.src);
    else if (target.tagName === "LINK" && /^(module)?preload$/.test(target.rel)) report("file", target.href);
  }, true);
  // Pyodide reports a WebAssembly runtime it could not compile (pyodide.asm.wasm
  // damaged, or missing without its preload) only as two console warnings, the
  // second its reason, and then waits forever.
  var warn = console.warn, wasmFailed = false;
  console.warn = function (first) {
    warn.apply(console, arguments);
    if (first === "wasm instantiation failed!") {
      wasmFailed = true;
      report("wasm", "");
    } else if (wasmFailed) {
      wasmFailed = false;
      report("wasm-reason", String(first));
    }
  };
})();
