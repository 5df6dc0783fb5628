// The server's CPU during 20 simultaneous analyses: first through the
// server's analysis endpoint (what the page asks without the WebAssembly
// build: `POST /api/games/{id}/analysis {ply}`, the server's default
// 1 s think), then as 20 pages analyse in their Web Worker (the page with
// the build: the analysis board of the same 20 games, `#analysis`). CPU
// seconds (user + system) of the server process from /proc/PID/stat, so
// the figures hold on a machine shared with other work; wall times too.
//   SPRINGBOARD_BIN=target/debug/springboard node e2e/wasm/analysiscpu.js [seconds]
// `seconds`: how long the 20 pages analyse (default 10).

import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { startServer, startBrowser } from "../tests/harness.js";

const SECONDS = Number(process.argv[2] || 10);
const N = 20;
const TICK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

// The server's process: the one whose command line names its data folder.
function serverPid(dataDir) {
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (cmd.includes("serve") && cmd.includes(dataDir)) return pid;
    } catch (_) {
      // a process that ended meanwhile
    }
  }
  throw new Error("the server's process was not found");
}

function cpu(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / TICK;
}

const server = await startServer();
const pid = serverPid(server.dataDir);
const origin = server.url.replace(/\/$/, "");
const post = (path, body) =>
  fetch(origin + path, { method: "POST", headers: { "content-type": "application/json", origin }, body: JSON.stringify(body) }).then(async (r) => {
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json();
  });

// 20 games of Hop Chess at one screen, a few moves in (the page's analysis
// board); a server allows 20 creations a minute from one address.
const ids = [];
for (let i = 0; i < N; i++) {
  const v = await post("/api/games", { variant: i % 2 ? "hopchess" : "chess", mode: "local" });
  ids.push(v.id);
}

// Before: the server analyses all 20 at once.
let c0 = cpu(pid);
let t0 = performance.now();
const answers = await Promise.all(ids.map((id) => post(`/api/games/${id}/analysis`, { ply: 0 })));
const serverWall = (performance.now() - t0) / 1000;
const serverCpu = cpu(pid) - c0;
console.log(`server analysis endpoint: ${N} analyses (depths ${Math.min(...answers.map((a) => a.depth))}-${Math.max(...answers.map((a) => a.depth))}), server CPU ${serverCpu.toFixed(2)} s, wall ${serverWall.toFixed(2)} s`);

// After: 20 pages analyse in their worker for SECONDS.
const browser = await startBrowser({ width: 1000, height: 700 }, { serviceWorkers: "block" });
try {
  c0 = cpu(pid);
  const pages = [];
  for (const id of ids) {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}g/${id}#analysis`);
    pages.push(page);
  }
  // Each page's analysis shows a depth from its worker.
  for (const page of pages) {
    await page.waitForFunction(() => /^depth \d+$/.test(document.getElementById("analysis-depth").textContent), null, { timeout: 120000 });
  }
  const loaded = cpu(pid) - c0;
  c0 = cpu(pid);
  t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const during = cpu(pid) - c0;
  const wall = (performance.now() - t0) / 1000;
  const mode = await pages[0].evaluate(() => document.documentElement.dataset.rules);
  console.log(`${N} pages analysing in their worker (rules: ${mode}): server CPU ${loaded.toFixed(2)} s to serve the 20 pages and their games, then ${during.toFixed(2)} s over ${wall.toFixed(1)} s of analysis`);
} finally {
  await browser.close();
  await server.stop();
}
