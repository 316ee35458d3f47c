#!/usr/bin/env node
// The independent judge of tests/bench/history_js.py: acorn's reading of a named JS definition.
//
// tether anchors with tree-sitter; this reads the same files with acorn (a different parser, a
// different tree), so a verdict is never judged by the code that made it. Needs acorn@8 and
// acorn-walk@8 on NODE_PATH (history_js.py installs them under its cache dir).
//
// One long-lived process, one JSON request per stdin line, one JSON answer per stdout line:
//   {"op":"fp","path":P,"queries":[{"name":N,"first":F,"last":L},...]}
//       -> {"ok":true,"answers":[sha1-or-null,...],"error":null|"parse error: ..."}
//   {"op":"all","paths":[P,...]}  -> {"ok":true,"counts":{sha1:count,...}}
//   {"op":"reset"}                -> {"ok":true}   (forget parsed files: send after a checkout)
//
// A fingerprint is the sha1 of the node as canonical JSON: keys sorted, positions and raw text
// dropped (formatting is not a change), the node's own name replaced by "_" (a rename is tether's
// to follow, not a code change). Context that changes meaning is folded in: `export` /
// `export default`, and var/let/const for a declarator.
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const readline = require("readline");
const acorn = require("acorn");
const walk = require("acorn-walk");

const DROP = new Set(["start", "end", "loc", "range", "raw"]);
const FUNCS = new Set(["FunctionExpression", "ArrowFunctionExpression", "ClassExpression"]);
const cache = new Map(); // path -> {cands, error, mtimeMs, size, ino}

function parse(src) {
  const opts = { ecmaVersion: "latest", allowHashBang: true, allowReturnOutsideFunction: true,
                 allowAwaitOutsideFunction: true, locations: true };
  try {
    return acorn.parse(src, { ...opts, sourceType: "module" });
  } catch (e) {
    return acorn.parse(src, { ...opts, sourceType: "script" }); // CommonJS may use `with`, octal, ...
  }
}

function canon(node, nameNode) {
  const norm = (v) => {
    if (v === nameNode) return "_";
    if (Array.isArray(v)) return v.map(norm);
    if (typeof v === "bigint") return { bigint: String(v) };
    if (typeof v === "number" && !Number.isFinite(v)) return { number: String(v) };
    if (v === null || typeof v !== "object") return v;
    const out = {};
    for (const k of Object.keys(v).sort()) {
      // a regex or bigint literal's `value` is a live object; its `regex`/`bigint` field says it all
      if (DROP.has(k) || (k === "value" && v.type === "Literal" && (v.regex || v.bigint !== undefined))) continue;
      out[k] = norm(v[k]);
    }
    return out;
  };
  return JSON.stringify(norm(node));
}

function keyName(key, computed) {
  if (computed) return null;
  if (key.type === "Identifier") return key.name;
  if (key.type === "PrivateIdentifier") return "#" + key.name; // tether spells it `#p`
  if (key.type === "Literal") return String(key.value);
  return null;
}

function exportOf(node) {
  if (node && node.type === "ExportNamedDeclaration") return { export: "named" };
  if (node && node.type === "ExportDefaultDeclaration") return { export: "default" };
  return null;
}

// Every definition tether could name: {name, line, endLine, span, fp()}; fp is computed lazily.
function candidates(ast) {
  const out = [];
  const add = (name, node, nameNode, extra) => {
    if (name == null) return;
    out.push({ name, line: node.loc.start.line, endLine: node.loc.end.line, span: node.end - node.start,
               fp: () => canon(extra ? { ...extra, node } : node, nameNode) });
  };
  walk.fullAncestor(ast, (n, _state, ancestors) => {
    const parent = ancestors[ancestors.length - 2];
    const grand = ancestors[ancestors.length - 3];
    switch (n.type) {
      case "FunctionDeclaration":
      case "ClassDeclaration":
        if (n.id) add(n.id.name, n, n.id, exportOf(parent));
        break;
      case "MethodDefinition":
      case "PropertyDefinition": // class fields: tether's "attribute"
        add(keyName(n.key, n.computed), n, n.key, null);
        break;
      case "Property":
        if (n.value && FUNCS.has(n.value.type)) add(keyName(n.key, n.computed), n, n.key, null);
        break;
      case "VariableDeclarator":
        if (n.id.type === "Identifier") {
          const kind = parent && parent.type === "VariableDeclaration" ? parent.kind : null;
          add(n.id.name, n, n.id, { declKind: kind, ...exportOf(grand) });
        }
        break;
      case "AssignmentExpression": // `x = function`, `exports.x = ...`, `Foo.prototype.x = ...`
        if (FUNCS.has(n.right.type)) {
          const l = n.left;
          if (l.type === "Identifier") add(l.name, n, l, null);
          else if (l.type === "MemberExpression" && !l.computed && l.property.type === "Identifier")
            add(l.property.name, n, l.property, null);
        }
        break;
    }
  });
  return out;
}

function load(path) {
  let st;
  try { st = fs.statSync(path); } catch (e) { return { cands: [], error: "missing" }; }
  const hit = cache.get(path);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size && hit.ino === st.ino) return hit;
  let entry;
  try {
    entry = { cands: candidates(parse(fs.readFileSync(path, "utf8"))), error: null };
  } catch (e) {
    entry = { cands: [], error: "parse error: " + e.message };
  }
  Object.assign(entry, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino });
  cache.set(path, entry);
  return entry;
}

// The outermost definition called `name` that starts within first..last and ends by last:
// tether's line range, checked by acorn's own idea of where the definition is.
function locate(entry, name, first, last) {
  let best = null;
  for (const c of entry.cands) {
    if (c.name !== name || c.line < first || c.line > last || c.endLine > last) continue;
    if (best === null || c.span > best.span) best = c;
  }
  return best && sha1(best.fp());
}

const sha1 = (s) => crypto.createHash("sha1").update(s).digest("hex");

function handle(req) {
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
      cache.clear();
      return { ok: true };
    default:
      return { ok: false, error: "unknown op " + req.op };
  }
}

readline.createInterface({ input: process.stdin, crlfDelay: Infinity }).on("line", (line) => {
  let ans;
  try { ans = handle(JSON.parse(line)); } catch (e) { ans = { ok: false, error: String(e) }; }
  process.stdout.write(JSON.stringify(ans) + "\n");
});
