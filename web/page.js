// The page's scripts of <body> (index.html loads this file at the end of
// <body>, before PyScript): translation, boot status, offline use.
// No inline script: the page's Content-Security-Policy allows scripts
// from the site's own origin only (docs/embed.md).

// The page's own words in the chosen language, before Python is ready: every
// element marked data-i18n (its text) or data-i18n-attr (those attributes),
// and t() for the scripts below.  optimusSetLanguage(code) switches: it keeps
// the choice, translates again and tells Python (the "optimus-language" event).
(function () {
  "use strict";
  var root = document.documentElement;
  var TAGS = { en: "en", pt: "pt-BR", ca: "ca" };
  var all = {};
  try { all = JSON.parse(document.getElementById("i18n-landing").textContent) || {}; } catch (error) {}
  var english = new Map();  // element -> its English text and attributes
  function words() { return all[root.getAttribute("data-lang")] || {}; }
  function t(text, values) {
    var out = words()[text] || text;
    if (values) out = out.replace(/\{(\w+)\}/g, function (whole, key) { return key in values ? String(values[key]) : whole; });
    return out;
  }
  function translate() {
    document.querySelectorAll("[data-i18n], [data-i18n-attr], [data-i18n-text]").forEach(function (element) {
      if (!english.has(element)) {
        var attrs = {};
        (element.getAttribute("data-i18n-attr") || "").split(/\s+/).forEach(function (name) {
          if (name) attrs[name] = element.getAttribute(name);
        });
        english.set(element, { text: element.hasAttribute("data-i18n") ? element.textContent.trim().replace(/\s+/g, " ") : null, attrs: attrs });
      }
      var known = english.get(element);
      var key = element.getAttribute("data-i18n-text") || known.text;  // set by a script
      if (key !== null) element.textContent = t(key);
      Object.keys(known.attrs).forEach(function (name) { element.setAttribute(name, t(known.attrs[name])); });
    });
    document.querySelectorAll("select[data-language]").forEach(function (select) { select.value = root.getAttribute("data-lang"); });
    // The switch's short face on a phone (PT, CA, EN): its select shows the whole names.
    document.querySelectorAll(".language-code").forEach(function (code) { code.textContent = String(root.getAttribute("data-lang")).toUpperCase(); });
    // The web app manifest in the language (its description; installing keeps it).
    var manifest = document.querySelector("link[rel=manifest][data-manifests]");
    if (manifest) {
      if (!manifest.hasAttribute("data-en")) manifest.setAttribute("data-en", manifest.getAttribute("href"));
      var variants = {};
      try { variants = JSON.parse(manifest.getAttribute("data-manifests")) || {}; } catch (error) {}
      manifest.setAttribute("href", variants[root.getAttribute("data-lang")] || manifest.getAttribute("data-en"));
    }
  }
  function setLanguage(code) {
    if (!Object.prototype.hasOwnProperty.call(TAGS, code)) return;
    root.lang = TAGS[code];
    root.setAttribute("data-lang", code);
    var kept = false;
    try {
      localStorage.setItem("optimus-table.lang", code);
      kept = localStorage.getItem("optimus-table.lang") === code;
    } catch (error) {}  // refused: this page only
    keepInAddress(code, kept);
    translate();
    window.dispatchEvent(new CustomEvent("optimus-language", { detail: code }));
  }
  // A link's ?lang= decides when the page loads (web/head.js), before the choice kept in
  // storage: so the address follows the switch, and a reload (or a link copied now) keeps
  // the language chosen.  Where storage is refused the address is the only memory: the
  // language is written there even when the link had none (docs/i18n.md).
  function keepInAddress(code, kept) {
    try {
      var url = new URL(location.href);
      if (!url.searchParams.has("lang") && kept) return;
      url.searchParams.set("lang", code);
      history.replaceState(history.state, "", url.href);
    } catch (error) {}  // an opaque (sandboxed) page may refuse: the switch still works
  }
  window.optimusT = t;
  window.optimusTranslate = translate;
  window.optimusSetLanguage = setLanguage;
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("select[data-language]")) setLanguage(target.value);
  });
  translate();
})();

// Boot status, independent of Python: shows progress, and turns every way
// the boot can fail (a file it needs not downloaded, JS error, rejected promise,
// PyScript error box, the runtime's wasm refused) into data-python="error" plus a
// readable message, as soon as the failure is known; a timeout is the last resort.
(function () {
  "use strict";
  var root = document.documentElement;
  var text = document.getElementById("boot-status-text");
  var box = document.getElementById("boot-error");
  var TIMEOUT_S = 120;
  var t = window.optimusT || function (s) { return s; };
  function el(tag, text) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    return node;
  }
  function addDetails(text) {
    var details = el("details");
    details.append(el("summary", t("Technical details")), el("pre", text));
    box.append(details);
  }
  // Which part of the site a file the boot could not download is, for the player.
  function known(url) {
    if (/\/wheels\/[^\/]+\.whl$/.test(url)) return t("The game package (its wheel) is missing or damaged.");
    if (/\/app\/web-[^\/]+\.zip$/.test(url)) return t("The page's own Python code (its web zip) is missing.");
    return null;
  }
  function missing(url) {
    return known(url) || t("A file of the Python runtime could not be downloaded.");
  }
  function fail(message) {
    if (root.getAttribute("data-python") === "ready") return;  // late noise after success
    var full = String(message || "Unknown error").trim();
    // A Python traceback ends with its one-line summary: show that first.
    var lines = full.split("\n").filter(function (line) { return line.trim(); });
    var summary = lines.length ? lines[lines.length - 1].trim() : full;
    // PyScript's message for a file of its config it could not download
    // ("[404] Unable to fetch <url>"): say which part of the site is missing.
    var fetched = /Unable to fetch (\S+)/.exec(summary);
    if (fetched && known(fetched[1])) summary = known(fetched[1]) + " " + summary;
    if (root.getAttribute("data-python") === "error") {
      // A later report of the same failure (e.g. the traceback after our own
      // message): keep the first summary, add the text to the details.
      if (lines.length > 1) addDetails(full);
      return;
    }
    root.setAttribute("data-python", "error");
    box.replaceChildren(
      el("strong", t("Python could not start, so the games cannot run.")),
      el("p", summary),
      el("p", t("Reload the page to try again. If it keeps failing, this copy of the site may be incomplete."))
    );
    if (lines.length > 1) addDetails(full);
    box.hidden = false;
  }
  window.optimusBootFail = fail;
  new MutationObserver(function () {
    var state = root.getAttribute("data-python");
    if (state === "ready") {
      if (window.__pythonReadyMs === undefined) window.__pythonReadyMs = performance.now();
      text.setAttribute("data-i18n-text", "Ready");
      text.textContent = t("Ready");
      box.hidden = true;
    } else if (state === "error") {
      text.setAttribute("data-i18n-text", "Python failed");
      text.textContent = t("Python failed");
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-python"] });
  // PyScript's error plugin reports Python errors as <div class="py-error">.
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      record.addedNodes.forEach(function (node) {
        if (node.classList && node.classList.contains("py-error")) fail(node.textContent);
      });
    });
  }).observe(document.body, { childList: true });
  // The failures web/head.js has seen (a file of the boot not downloaded, the
  // runtime's WebAssembly refused), from the start of the page, and later ones.
  var wasmDetails = false;
  function failure(kind, detail) {
    if (kind === "loader") fail(t("The Python loader could not be downloaded."));
    else if (kind === "file") fail(missing(detail) + " " + detail);
    else if (kind === "wasm") {
      fail(t("The Python runtime (its WebAssembly file) is missing or damaged."));
      wasmDetails = true;
    } else if (kind === "wasm-reason" && wasmDetails) {
      wasmDetails = false;
      if (root.getAttribute("data-python") === "error") addDetails(detail);
    }
  }
  (window.optimusBootFailures || []).forEach(function (args) { failure(args[0], args[1]); });
  window.optimusBootFailure = failure;
  addEventListener("error", function (event) {
    if (event.target === window) fail(event.message || t("A script failed to load."));
  });
  addEventListener("unhandledrejection", function (event) {
    var reason = event.reason;
    fail(reason && reason.message ? reason.message : String(reason));
  });
  setTimeout(function () {
    if (root.getAttribute("data-python") === "loading") {
      fail(t("It did not finish loading within {seconds} seconds.", { seconds: TIMEOUT_S }));
    }
  }, TIMEOUT_S * 1000);
})();

// Offline use and updates (the worker is web/sw.js; see docs/embed.md).
// Once Python is ready, register the service worker that keeps this build's
// files, and report in <html data-offline="...">: "unavailable" (no worker
// here: an insecure or sandboxed page, storage refused; the page plays as
// usual), "installing", "ready", or "update" (a new build waits for a reload).
// A new build is taken at once when no game is open, else on the next load.
(function () {
  "use strict";
  var root = document.documentElement;
  var container = null;
  try {
    if (window.isSecureContext) container = navigator.serviceWorker || null;
  } catch (error) {}  // a sandboxed frame may throw a SecurityError here
  function state(value) { root.setAttribute("data-offline", value); }
  if (!container) { state("unavailable"); return; }
  var switching = false;
  var t = window.optimusT || function (s) { return s; };
  function N_(text) { return text; }  // marks an English sentence for the catalogs
  // A note is one short line in the flow of the page, under the bar in view (the site
  // header, or a table's game bar): it covers nothing and nothing moves under a finger
  // when it goes.  One that asks nothing goes with the next change of page; the update's
  // (with its button) follows the player from page to page until it is taken.
  function place(element) {
    var bar = gameOpen() ? document.querySelector("#game .game-bar") : document.querySelector(".site-header");
    if (bar && bar.nextElementSibling !== element) bar.after(element);
  }
  function note(text, button) {
    var element = document.getElementById("offline-note");
    if (!element) {
      element = document.createElement("p");
      element.id = "offline-note";
      element.className = "offline-note";
      element.setAttribute("role", "status");
    }
    place(element);
    // The English is kept, so a switch of language translates the note again.
    var words = document.createElement("span");
    words.setAttribute("data-i18n-text", text);
    words.textContent = t(text);
    element.replaceChildren(words);
    if (button) element.append(button);
  }
  function pageChanged() {
    var element = document.getElementById("offline-note");
    if (!element) return;
    if (element.querySelector("button")) place(element);
    else element.remove();
  }
  addEventListener("hashchange", pageChanged);
  var game = document.getElementById("game");  // shown or hidden once the route is drawn
  if (game) new MutationObserver(pageChanged).observe(game, { attributes: true, attributeFilter: ["hidden"] });
  function gameOpen() {  // a game route is shown (the table may hold a game in progress)
    var game = document.getElementById("game");
    return !!game && !game.hidden && root.getAttribute("data-python") === "ready";
  }
  function takeUpdate(registration) {
    if (switching || !registration.waiting) return;
    switching = true;
    container.addEventListener("controllerchange", function () { location.reload(); });
    registration.waiting.postMessage("optimus-activate-update");
  }
  function updateReady(registration) {
    if (!gameOpen()) return takeUpdate(registration);
    state("update");
    var button = document.createElement("button");
    button.type = "button";
    button.setAttribute("data-i18n-text", N_("Reload"));
    button.textContent = t("Reload");
    button.addEventListener("click", function () { takeUpdate(registration); });
    note(N_("An update is ready."), button);
  }
  function watch(registration, worker) {
    if (!worker) return;
    var first = !registration.active;  // nothing cached before: the first install
    if (first) state("installing");
    worker.addEventListener("statechange", function () {
      if (worker.state === "installed" && registration.active && registration.active !== worker) {
        updateReady(registration);
      } else if (worker.state === "activated" && first) {
        state("ready");
        note(N_("Now works offline."));
      } else if (worker.state === "redundant" && first) {
        state("unavailable");  // the install failed (storage full, a redeploy meanwhile)
      }
    });
  }
  function follow(registration) {
    if (registration.waiting && registration.active) return updateReady(registration);
    if (registration.installing) watch(registration, registration.installing);
    else if (registration.active) state("ready");
    registration.addEventListener("updatefound", function () {
      watch(registration, registration.installing);
    });
  }
  function register() {
    container.register("./sw.js", { scope: "./", updateViaCache: "none" })
      .then(follow)
      .catch(function () { state("unavailable"); });  // quietly: the page works as before
  }
  // A build installed on an earlier visit waits: take it before Python boots.
  container.getRegistration("./").then(function (registration) {
    if (registration && registration.waiting && registration.active) takeUpdate(registration);
  }).catch(function () {});
  if (root.getAttribute("data-python") === "ready") return register();
  var observer = new MutationObserver(function () {
    if (root.getAttribute("data-python") !== "ready") return;
    observer.disconnect();
    register();
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-python"] });
})();

// Installing the site as an app (its manifest and service worker make it installable;
// docs/embed.md).  Where the browser offers it (Chromium's beforeinstallprompt), an
// "Install the app" button on the landing asks it; where a browser installs from its
// own menu (iOS Safari: Share, Add to Home Screen; others on a touch screen), a short
// note says how.  Nothing when the site runs installed already or inside a frame.
(function () {
  "use strict";
  var box = document.querySelector("[data-role=install]");
  if (!box) return;
  var button = box.querySelector("[data-install]");
  var offered = null;  // the browser's offer, used once
  function standalone() {
    try { return matchMedia("(display-mode: standalone)").matches || navigator.standalone === true; } catch (error) { return false; }
  }
  function framed() {
    try { return window.top !== window; } catch (error) { return true; }
  }
  function show(which) {  // "button", a note's name, or null (nothing)
    box.hidden = which === null;
    button.hidden = which !== "button";
    box.querySelectorAll("[data-install-note]").forEach(function (note) {
      note.hidden = note.getAttribute("data-install-note") !== which;
    });
  }
  if (standalone() || framed()) return;
  addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault();  // the page's own entry instead of the browser's banner
    offered = event;
    show("button");
  });
  button.addEventListener("click", function () {
    var event = offered;
    offered = null;
    show(null);  // an offer can be asked once; the browser offers again on a later visit
    if (event) Promise.resolve(event.prompt()).catch(function () {});
  });
  addEventListener("appinstalled", function () { offered = null; show(null); });
  var ua = navigator.userAgent || "";
  var apple = /iPad|iPhone|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  if (apple) show("ios");
  else if (!("onbeforeinstallprompt" in window) && navigator.maxTouchPoints > 0) show("menu");
})();

// Keyed updates: make an element's content match new markup by patching it in
// place (web/keyed.py calls optimusPatch; its docstring says why and how).
// Children are matched by data-key (with their tag), else in order among siblings
// of the same tag; a matched element keeps its identity (attributes set or removed,
// children patched alike, an equal subtree left alone); new pieces are inserted,
// gone ones removed, the rest moved into the new order.  Here rather than in
// Python: one call from the page's Python instead of one per node and attribute.
(function () {
  "use strict";
  function key(node) {
    if (node.nodeType !== 1) return null;
    var k = node.getAttribute("data-key");
    return k ? node.nodeName + "\u0000" + k : null;
  }
  function children(oldParent, newParent) {
    var keyed = new Map(), unkeyed = new Map(), wanted = [];
    Array.prototype.slice.call(oldParent.childNodes).forEach(function (child) {
      var k = key(child);
      if (k !== null && !keyed.has(k)) { keyed.set(k, child); return; }
      if (!unkeyed.has(child.nodeName)) unkeyed.set(child.nodeName, []);
      unkeyed.get(child.nodeName).push(child);
    });
    Array.prototype.slice.call(newParent.childNodes).forEach(function (child) {
      var k = key(child), match = null, queue;
      if (k !== null) {
        if (keyed.has(k)) { match = keyed.get(k); keyed.delete(k); }
      } else if ((queue = unkeyed.get(child.nodeName)) && queue.length) {
        match = queue.shift();
      }
      if (match === null) { wanted.push(child); return; }  // new: moved in from the template
      morph(match, child);
      wanted.push(match);
    });
    keyed.forEach(function (gone) { gone.remove(); });
    unkeyed.forEach(function (queue) { queue.forEach(function (gone) { gone.remove(); }); });
    wanted.forEach(function (child, i) {
      var current = oldParent.childNodes[i];
      if (!current) oldParent.appendChild(child);
      else if (current !== child) oldParent.insertBefore(child, current);
    });
  }
  function morph(old, fresh) {
    if (old.nodeType === 3 || old.nodeType === 8) {
      if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
      return;
    }
    if (old.isEqualNode(fresh)) return;
    var want = new Map();
    Array.prototype.forEach.call(fresh.attributes, function (a) { want.set(a.name, a.value); });
    Array.prototype.slice.call(old.attributes).forEach(function (a) {
      if (!want.has(a.name)) old.removeAttribute(a.name);
    });
    want.forEach(function (value, name) {
      if (old.getAttribute(name) !== value) old.setAttribute(name, value);
    });
    children(old, fresh);
  }
  window.optimusPatch = function (node, markup) {
    var template = document.createElement("template");
    template.innerHTML = markup;
    children(node, template.content);
  };
})();
