// The line protocol of the node oracles (js_oracle.js: acorn, ts_oracle.js: the TypeScript
// compiler): one long-lived process, one JSON request per stdin line, one JSON answer per line.
//   {"op":"fp","path":P,"queries":[{"name":N,"first":F,"last":L},...]}
//       -> {"ok":true,"answers":[sha1-or-null,...],"error":null|"parse error: ..."}
//   {"op":"all","paths":[P,...]}  -> {"ok":true,"counts":{sha1:count,...}}
//   {"op":"reset"}                -> {"ok":true}   (forget parsed files: send after a checkout)
// An oracle gives `read(path, text)`: {cands: [{name, line, endLine, span, fp()}], error}.
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const readline = require("readline");

const sha1 = (s) => crypto.createHash("sha1").update(s).digest("hex");

// A file's definitions, read again only when the file changed (a checkout rewrites it).
function loader(read) {
  const cache = new Map(); // path -> {cands, error, mtimeMs, size, ino}
  const load = (path) => {
    let st;
    try { st = fs.statSync(path); } catch (e) { return { cands: [], error: "missing" }; }
    const hit = cache.get(path);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size && hit.ino === st.ino) return hit;
    const entry = read(path, fs.readFileSync(path, "utf8"));
    Object.assign(entry, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino });
    cache.set(path, entry);
    return entry;
  };
  load.clear = () => cache.clear();
  return load;
}

// The outermost definition called `name` that starts within first..last and ends by last:
// tether's line range, checked by the oracle's own idea of where the definition is.
function locate(entry, name, first, last) {
  let best = null;
  for (const c of entry.cands) {
    if (c.name !== name || c.line < first || c.line > last || c.endLine > last) continue;
    if (best === null || c.span > best.span) best = c;
  }
  return best && sha1(best.fp());
}

function handle(load, req) {
  switch (req.op) {
    case "fp": {
      const e = load(req.path);
      return { ok: true, error: e.error, answers: req.queries.map((q) => locate(e, q.name, q.first, q.last)) };
    }
    case "all": {
      const counts = {};
      for (const p of req.paths) for (const c of load(p).cands) { const f = sha1(c.fp()); counts[f] = (counts[f] || 0) + 1; }
      return { ok: true, counts };
    }
    case "reset":
      load.clear();
      return { ok: true };
    default:
      return { ok: false, error: "unknown op " + req.op };
  }
}

function serve(load) {
  readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => {
    let ans;
    try { ans = handle(load, JSON.parse(line)); } catch (e) { ans = { ok: false, error: String(e) }; }
    process.stdout.write(JSON.stringify(ans) + "\n");
  });
}

module.exports = { loader, serve };
