// The analysis on 1 and on 2 Web Workers in headless Chromium: the time
// each takes to reach a fixed depth (every worker's search done at that
// depth) on some of the search bench's positions (crates/springboard/src/
// bench.rs), through the page's own module (static/analysisthreads.js,
// the root moves dealt between the workers) and the WebAssembly build the
// server serves, with the page's three lines (MultiPV; or as many as asked). The machine may
// be shared: the two are run side by side, alternating (1 then 2, then 2
// then 1, ...), and the load average is printed before and after.
//   SPRINGBOARD_BIN=target/debug/springboard node e2e/wasm/threadbench.js [rounds] [depth offset] [lines]
// Prints, for each position and count, the median time, the nodes of all
// the workers together and the most one worker searched, and the ratios
// (2 workers / 1): of the times, of the nodes in all, and of the most
// nodes one worker searched (what the time's ratio would be with a free
// core for each worker and the same speed per core).

import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { startServer, startBrowser } from "../tests/harness.js";
import { repo } from "./load.js";

const rounds = Number(process.argv[2] || 2);
const offset = Number(process.argv[3] || 0);
const MULTIPV = Number(process.argv[4] || 3);

const src = readFileSync(join(repo, "crates", "springboard", "src", "bench.rs"), "utf8");
const positions = src.slice(src.indexOf("const SEARCH_POSITIONS"), src.indexOf("/// The search bench depth of a game."));
const names = { Chess: "chess", HopChess: "hopchess", Trampoline: "trampoline", JumpingKing: "jumpingking", Hoplit: "hoplit" };
const all = [...positions.matchAll(/Variant::(\w+),\s*"([^"]+)"/g)].map(([, v, fen]) => ({ variant: names[v], fen }));
// Four middlegames of chess, one of Trampoline Chess, one of Hop Chess,
// at depths where one worker takes seconds.
const depthOf = { chess: 13, trampoline: 11, hopchess: 5 };
const jobs = [all[1], all[2], all[3], all[6], all.find((j) => j.variant === "trampoline"), all.find((j) => j.variant === "hopchess")].map((j) => ({
  ...j,
  depth: depthOf[j.variant] + offset,
}));

const load = () => loadavg().map((x) => x.toFixed(2)).join(" ");
console.log(`load average before: ${load()}`);
const server = await startServer();
const browser = await startBrowser({ width: 800, height: 600 }, { serviceWorkers: "block" });
const times = new Map();
try {
  const page = await browser.context.newPage();
  await page.goto(server.url);
  await page.evaluate(async () => {
    const names = await (await fetch("/static/wasm.json")).json();
    const mod = await import(names.js);
    const module = await WebAssembly.compile(await (await fetch(names.wasm)).arrayBuffer());
    await mod.default({ module_or_path: module });
    const threads = await import("/static/analysisthreads.js");
    Object.assign(window, { bench: { rules: mod, build: { js: new URL(names.js, location.href).href, module }, threads } });
  });
  for (let r = 0; r < rounds; r++) {
    for (const job of jobs) {
      const order = r % 2 === 0 ? [1, 2] : [2, 1];
      for (const n of order) {
        const out = await page.evaluate(
          ({ job, n, multipv }) =>
            new Promise((resolve, reject) => {
              const b = window["bench"];
              const t0 = performance.now();
              const search = b.threads.startAnalysis({
                rules: b.rules,
                build: b.build,
                variant: job.variant,
                start_fen: job.fen,
                moves: [],
                multipv,
                depth: job.depth,
                threads: n,
                onChange: () => {},
                onDone: () => {
                  const v = search.view();
                  resolve({ ms: performance.now() - t0, nodes: v.nodes.reduce((a, x) => a + x, 0), most: Math.max(...v.nodes), depth: v.depth, best: v.lines[0].pv_uci[0], score: v.lines[0].score });
                },
                onError: (m) => reject(new Error(m)),
              });
            }),
          { job, n, multipv: MULTIPV },
        );
        const key = `${job.variant} ${job.fen}|${n}`;
        if (!times.has(key)) times.set(key, []);
        times.get(key).push(out);
        console.log(`round ${r + 1} ${job.variant.padEnd(10)} depth ${job.depth} ${n} worker${n > 1 ? "s" : " "}: ${(out.ms / 1000).toFixed(2)} s, ${out.nodes} nodes, best ${out.best} ${JSON.stringify(out.score)}`);
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`load average after: ${load()}`);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
let sum1 = 0;
let sum2 = 0;
let nodes1 = 0;
let nodes2 = 0;
let most2 = 0;
for (const job of jobs) {
  const one = times.get(`${job.variant} ${job.fen}|1`);
  const two = times.get(`${job.variant} ${job.fen}|2`);
  const t1 = median(one.map((o) => o.ms));
  const t2 = median(two.map((o) => o.ms));
  sum1 += t1;
  sum2 += t2;
  nodes1 += one[0].nodes;
  nodes2 += two[0].nodes;
  most2 += two[0].most;
  console.log(
    `${job.variant.padEnd(10)} depth ${job.depth}: 1 worker ${(t1 / 1000).toFixed(2)} s (${one[0].nodes} nodes), ` +
      `2 workers ${(t2 / 1000).toFixed(2)} s (${two[0].nodes} nodes, at most ${two[0].most} in one): ` +
      `time ${(t2 / t1).toFixed(2)}, nodes ${(two[0].nodes / one[0].nodes).toFixed(2)}, one worker's most ${(two[0].most / one[0].nodes).toFixed(2)}  ${job.fen}`,
  );
}
console.log(
  `all (${MULTIPV} lines): 1 worker ${(sum1 / 1000).toFixed(2)} s, 2 workers ${(sum2 / 1000).toFixed(2)} s: time ${(sum2 / sum1).toFixed(2)}; ` +
    `nodes ${nodes1} and ${nodes2}: ${(nodes2 / nodes1).toFixed(2)}; one worker's most ${most2}: ${(most2 / nodes1).toFixed(2)}`,
);
