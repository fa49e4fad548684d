// The bot worker of Optimus Table: players' own bots run here, off the page's thread.
//
// The page (web/botworker.py) starts this file as a module worker of the site's own
// origin (build.py ships it as app/botworker-<hash>.js) and sends it, first, where
// the runtime and our code are:
//   {"pyodide": URL of pyodide.mjs, "files": [[URL, path], ...] (the boot's wheel and
//    web zip, written into the file system and put on sys.path as the page does),
//    "units": the archives fetched after the boot (web/lazy.py), "game": the game's
//    archive to mount, "lang": the language to speak}
// and it answers {"booted": ms} once Python and the game's rules are imported, or
// {"failed": words}.  After that each message is JSON text {"id": n, "op": ...},
// answered by optimus.core.botworker.Host (through web/worker_host.py) as {"id": n, ...};
// once the worker's Python has ended (a bot called os._exit), it answers {"exited": status}
// (or {"lost": words}) at once, so the page stops it and says so.  No DOM, no
// SharedArrayBuffer: it works on any static host and in a cross-origin iframe.  When
// a bot does not answer in time, the page terminates this worker (docs/bots.md).
"use strict";

let host = null;

const BOOT = `
import json, os, sys

import js

config = json.loads(CONFIG)
sys.path += [path for _url, path in config["files"]]
from optimus_web.lazy import ARCHIVES, Archives


async def fetch(url):
    response = await js.fetch(url)
    if not response.ok:
        raise OSError(f"{url}: HTTP {response.status}")
    return (await response.arrayBuffer()).to_bytes()


os.makedirs(ARCHIVES, exist_ok=True)
await Archives(config["units"], fetch).load(config["game"])

from optimus_web.worker_host import handler

handler(config["game"], config["lang"])
`;

async function boot(config) {
  const started = performance.now();
  const { loadPyodide } = await import(config.pyodide);
  const pyodide = await loadPyodide({ indexURL: new URL("./", config.pyodide).href });
  for (const [url, path] of config.files) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(url + ": HTTP " + response.status);
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, new Uint8Array(await response.arrayBuffer()));
  }
  pyodide.globals.set("CONFIG", JSON.stringify(config));
  host = await pyodide.runPythonAsync(BOOT);
  return performance.now() - started;
}

// A Python error's message is its whole traceback: its last line says what.
const words = (error) =>
  String(error && error.message ? error.message : error).trim().split("\n").pop();

self.onmessage = async (event) => {
  if (host === null) {
    try {
      const ms = await boot(JSON.parse(event.data));
      self.postMessage(JSON.stringify({ booted: ms }));
    } catch (error) {
      self.postMessage(JSON.stringify({ failed: words(error) }));
    }
    return;
  }
  let reply;
  try {
    reply = await host(event.data);
  } catch (error) {
    reply = ended(error);
  }
  self.postMessage(reply);
};

// os._exit() in a bot: Pyodide throws the exit (an error with its status) from the task
// that ran it, and is gone.  Said to the page at once ({"exited": status}, or {"lost":
// words} for another fatal error), instead of an uncaught error and no answer.
const ended = (error) =>
  JSON.stringify(
    error && typeof error.status === "number" ? { exited: error.status } : { lost: words(error) },
  );

self.addEventListener("error", (event) => {
  if (host === null) return; // booting: boot() says what failed
  event.preventDefault();
  self.postMessage(ended(event.error || event.message));
});
self.addEventListener("unhandledrejection", (event) => {
  if (host === null) return;
  event.preventDefault();
  self.postMessage(ended(event.reason));
});
