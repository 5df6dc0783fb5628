// Fails when the page's modules (the folder given, crates/web/static)
// import one another in a circle: each module imports only modules below
// it (state.js's hooks carry the few calls that go back up).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
const graph = new Map();
for (const name of readdirSync(dir).filter((n) => n.endsWith(".js"))) {
  const text = readFileSync(join(dir, name), "utf8");
  const deps = [...text.matchAll(/^import\s[^;]*?from\s+"\.\/([\w.-]+\.js)";/gms)].map((m) => m[1]);
  graph.set(name, deps);
}

const done = new Set();
const path = [];
let circles = 0;
function visit(name) {
  if (path.includes(name)) {
    console.error(`import circle: ${[...path.slice(path.indexOf(name)), name].join(" -> ")}`);
    circles++;
    return;
  }
  if (done.has(name)) return;
  path.push(name);
  for (const dep of graph.get(name) || []) {
    if (!graph.has(dep)) {
      console.error(`${name} imports ${dep}, which is not in ${dir}`);
      circles++;
    } else visit(dep);
  }
  path.pop();
  done.add(name);
}
for (const name of graph.keys()) visit(name);
if (circles > 0) process.exit(1);
console.log(`${graph.size} modules, no import circle`);
