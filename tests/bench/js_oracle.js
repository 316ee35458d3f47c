#!/usr/bin/env node
// The independent judge of tests/bench/history_js.py: acorn's reading of a named JS definition.
//
// tether anchors with tree-sitter; this reads the same files with acorn (a different parser, a
// different tree), so a verdict is never judged by the code that made it. Needs acorn@8 and
// acorn-walk@8 on NODE_PATH (history_js.py installs them under its cache dir).
//
// It speaks oracle_serve.js's line protocol.
//
// A fingerprint is the sha1 of the node as canonical JSON: keys sorted, positions and raw text
// dropped (formatting is not a change), the node's own name replaced by "_" (a rename is tether's
// to follow, not a code change). Context that changes meaning is folded in: `export` /
// `export default`, and var/let/const for a declarator.
"use strict";
const acorn = require("acorn");
const walk = require("acorn-walk");
const { loader, serve } = require("./oracle_serve");

const DROP = new Set(["start", "end", "loc", "range", "raw"]);
const FUNCS = new Set(["FunctionExpression", "ArrowFunctionExpression", "ClassExpression"]);

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

const load = loader((path, text) => {
  try {
    return { cands: candidates(parse(text)), error: null };
  } catch (e) {
    return { cands: [], error: "parse error: " + e.message };
  }
});

serve(load);
