// The search bench (`springboard bench`'s 16 positions and depths, read
// from crates/springboard/src/bench.rs) in headless Chromium: the page's
// WebAssembly build as the server serves it (/static/wasm.json), one
// search thread in a dedicated Web Worker as the page's analysis runs it,
// 16 MB table; then the native `springboard bench` (one thread, 16 MB) on
// the same positions. Prints both node totals (the bench signature: they
// must be equal), the nodes per second of each, and their ratio. The CPU
// time of each side is given too (the browser's from its processes'
// /proc/PID/stat, the native one's from getrusage), since the machine may
// be shared: nodes per CPU-second compare fairly under load.
//   SPRINGBOARD_BIN=target/debug/springboard node e2e/wasm/browserbench.js [native springboard]
// The native binary defaults to SPRINGBOARD_BIN; a release build
// (cargo build --release) is the fair one.

import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startServer, startBrowser, SPRINGBOARD } from "../tests/harness.js";
import { repo } from "./load.js";

const native = process.argv[2] || SPRINGBOARD;
const src = readFileSync(join(repo, "crates", "springboard", "src", "bench.rs"), "utf8");
const positions = src.slice(src.indexOf("const SEARCH_POSITIONS"), src.indexOf("/// The search bench depth of a game."));
const names = { Chess: "chess", HopChess: "hopchess", Trampoline: "trampoline", JumpingKing: "jumpingking", Hoplit: "hoplit" };
const depthOf = (c) => Number(new RegExp(`const ${c}: u32 = (\\d+);`).exec(src)[1]);
const depths = {
  Chess: depthOf("SEARCH_DEPTH"),
  Hoplit: depthOf("HOPLIT_DEPTH"),
  JumpingKing: depthOf("JUMPINGKING_DEPTH"),
  Trampoline: depthOf("TRAMPOLINE_DEPTH"),
  HopChess: depthOf("HOPCHESS_DEPTH"),
};
const jobs = [...positions.matchAll(/Variant::(\w+),\s*"([^"]+)"/g)].map(([, v, fen]) => ({ variant: names[v], fen, depth: depths[v] }));

// CPU seconds (user + system) of the processes whose command line names
// `word` (the browser's, found by its profile's folder).
const TICK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
const pids = () => readdirSync("/proc").filter((d) => /^\d+$/.test(d));
const cmdline = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch (_) {
    return "";
  }
};
function cpuOf(word) {
  let ticks = 0;
  for (const pid of pids()) {
    try {
      const cmd = cmdline(pid);
      if (!cmd.includes(word)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]);
    } catch (_) {
      // a process that ended meanwhile
    }
  }
  return ticks / TICK;
}

// The worker's code: loads the build, searches each job, answers the totals.
const WORKER = `
onmessage = async (ev) => {
  const { js, wasm, jobs } = ev.data;
  const mod = await import(js);
  await mod.default({ module_or_path: wasm });
  const out = [];
  for (const j of jobs) {
    const g = new mod.Game(j.variant, j.fen);
    const a = new mod.Analyser(16);
    const t = performance.now();
    const r = JSON.parse(a.search(g, JSON.stringify({ depth: j.depth }), () => false));
    out.push({ variant: j.variant, nodes: r.nodes, ms: performance.now() - t, best: r.best });
    a.free();
    g.free();
  }
  postMessage(out);
};`;

const server = await startServer();
const older = new Set(pids());
const browser = await startBrowser({ width: 800, height: 600 }, { serviceWorkers: "block" });
// This browser's profile folder, from one of its new processes.
const profile = pids()
  .filter((p) => !older.has(p))
  .map((p) => /--user-data-dir=([^\0]+)/.exec(cmdline(p)))
  .find((m) => m)[1];
let results;
let browserCpu;
try {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  const before = cpuOf(profile);
  results = await page.evaluate(
    async ({ code, jobs }) => {
      const names = await (await fetch("/static/wasm.json")).json();
      const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
      const w = new Worker(url, { type: "module" });
      return new Promise((resolve, reject) => {
        w.onmessage = (ev) => resolve(ev.data);
        w.onerror = (e) => reject(new Error(e.message));
        w.postMessage({ js: new URL(names.js, location.href).href, wasm: new URL(names.wasm, location.href).href, jobs });
      });
    },
    { code: WORKER, jobs },
  );
  browserCpu = cpuOf(profile) - before;
} finally {
  await browser.close();
  await server.stop();
}

let nodes = 0;
let ms = 0;
for (const r of results) {
  nodes += r.nodes;
  ms += r.ms;
  console.log(`${r.variant.padEnd(12)} nodes ${String(r.nodes).padStart(8)}  ${(r.ms / 1000).toFixed(3)} s  best ${r.best}`);
}
const wasmNps = (nodes / ms) * 1000;
console.log(`Chromium (WebAssembly, one thread): ${nodes} nodes, ${(ms / 1000).toFixed(2)} s, ${Math.round(wasmNps)} nps; browser CPU ${browserCpu.toFixed(2)} s`);

const run = spawnSync("/usr/bin/time", ["-f", "%U %S", native, "bench"], { encoding: "utf8" });
const out = run.stdout;
const nativeNodes = Number(/Nodes searched\s*:\s*(\d+)/.exec(out)[1]);
const nativeNps = Number(/Nodes\/second\s*:\s*(\d+)/.exec(out)[1]);
const [user, sys] = run.stderr.trim().split("\n").pop().split(" ").map(Number);
console.log(`native (${native} bench, one thread): ${nativeNodes} nodes, ${nativeNps} nps; CPU ${(user + sys).toFixed(2)} s`);
console.log(`WebAssembly in Chromium / native: ${((wasmNps / nativeNps) * 100).toFixed(0)}% (wall), ${((nodes / browserCpu / (nativeNodes / (user + sys))) * 100).toFixed(0)}% (per CPU-second)`);
if (nodes !== nativeNodes) {
  console.error(`the node totals differ: ${nodes} in the browser, ${nativeNodes} native`);
  process.exit(1);
}
