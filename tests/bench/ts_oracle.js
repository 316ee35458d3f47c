#!/usr/bin/env node
// The independent judge of tests/bench/history_ts.py: the TypeScript compiler's reading of a named
// TS definition.
//
// tether anchors with tree-sitter; this reads the same files with the compiler's own parser (a
// different parser, a different tree), so a verdict is never judged by the code that made it.
// Needs `typescript` on NODE_PATH (history_ts.py installs it under its cache dir).
//
// It speaks oracle_serve.js's line protocol.
//
// A fingerprint is the sha1 of the node as canonical JSON: every own property of every node under
// it, keyed by its slot (`for (;x;)` is not `for (x;;)`, which an unlabelled child list would call
// equal), keys sorted, with only what is layout or bookkeeping dropped (DROP below): positions,
// parents, comments and JSDoc, quote style, trailing commas, grouping parentheses, escapes whose
// value is the same. The node's own name is replaced by "_" (a rename is tether's to follow, not a
// code change), and so are its references to itself, which a rename rewrites with it: a function's
// or class's own name in its body (recursion, `new Foo`), a member's `this.name`, and a member's
// `Foo` where Foo is its class (renamed `Foo` -> `Bar`, `new Foo` becomes `new Bar`); never a
// property of something else (`immer.setUseProxies`) nor, in a member, a bare name (`get(k)` in a
// method `get` calls some other `get`). Context that changes meaning is folded in: let/const/var
// and `export`/`declare` of a declarator's statement. Whatever is not known to be layout is kept:
// a property dropped wrongly would hide a false fresh, one kept wrongly only counts a cosmetic stale.
"use strict";
const ts = require("typescript");
const { loader, serve } = require("./oracle_serve");

const K = ts.SyntaxKind;
const DROP = new Set([
  "pos", "end", "flags", "kind", "parent", "id", "original", "emitNode", "transformFlags", "modifierFlagsCache",
  // the binder's (never run here) and the checker's caches
  "symbol", "localSymbol", "locals", "nextContainer", "flowNode", "endFlowNode", "returnFlowNode", "possiblyExhaustive",
  // comments, and spellings of one value: 'a' / "a", "\x41" / "A" (`text` is the value), 0x10 / 16
  "jsDoc", "jsDocCache", "singleQuote", "hasExtendedUnicodeEscape", "numericLiteralFlags", "templateFlags",
  // layout: a block or literal on one line or many; JSX whitespace is normalized below
  "multiLine", "containsOnlyTriviaWhiteSpaces",
]);
// The flags that are syntax, not context or caches: `let`/`const`/`using`, `namespace` vs `module`,
// `declare global`, and a link of an optional chain (`(a?.b).c` is not `a?.b.c`: the parentheses
// that end a chain leave only this trace once they are dropped).
const F = ts.NodeFlags;
const SYNTAX_FLAGS = F.Let | F.Const | F.Using | F.Namespace | F.NestedNamespace | F.GlobalAugmentation | F.OptionalChain;
const FUNCS = new Set([K.FunctionExpression, K.ArrowFunction, K.ClassExpression]);

// Statements and class members that do nothing: a stray `;`.
const isNoop = (n) => n.kind === K.EmptyStatement || n.kind === K.SemicolonClassElement;

// JSX text as the compiler emits it (its `fixupWhitespaceAndDecodeEntities`, entities left as
// written): each line trimmed where it meets a line break, blank lines gone, the rest joined by a
// space; undefined when nothing is left (the child is not emitted at all).
function jsxText(text) {
  let acc;
  let first = 0;
  let last = -1;
  const line = (s) => { acc = acc === undefined ? s : acc + " " + s; };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) {
      if (first !== -1 && last !== -1) line(text.slice(first, last + 1));
      first = -1;
    } else if (!ts.isWhiteSpaceSingleLine(c)) {
      last = i;
      if (first === -1) first = i;
    }
  }
  if (first !== -1) line(text.slice(first));
  return acc;
}

function unwrap(n) {
  for (;;) {
    if (n.kind === K.ParenthesizedType) n = n.type;
    // `('use strict');` is a statement, `'use strict';` a directive: those parentheses stay
    else if (n.kind === K.ParenthesizedExpression && !(n.parent && n.parent.kind === K.ExpressionStatement
             && n.expression.kind === K.StringLiteral)) n = n.expression;
    else return n;
  }
}

// A name in a slot that names a property, key, label or declaration, not a reference: `x.get`,
// `{ get: 1 }`, `get() {}`, `A.B` in a type, a parameter `get`. `this.get` is the member itself.
function isReference(id) {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p)) return p.expression === id;
  if (ts.isQualifiedName(p)) return p.left === id;
  return !(p.name === id || p.propertyName === id || p.label === id);
}

function isThisMember(id) {
  const p = id.parent;
  return ts.isPropertyAccessExpression(p) && p.name === id && p.expression.kind === K.ThisKeyword;
}

// self: {name, scope, owner}: the definition's name; "lexical" if that name is in scope in its own
// body (a function, class, variable), "member" for a class, interface or object member (`this.name`),
// else "other"; and a member's class name (or null).
function canon(root, nameNode, self) {
  const selfRef = (id) => {
    if (id.text === self.name && (self.scope === "lexical" ? isReference(id) : self.scope === "member" && isThisMember(id))) {
      return "_";
    }
    return self.owner !== null && id.text === self.owner && isReference(id) ? "^" : null;
  };
  const norm = (v) => {
    if (v === nameNode) return "_";
    if (Array.isArray(v)) {
      const out = [];
      for (const x of v) {
        if (x && typeof x.kind === "number") {
          if (isNoop(x) || (x.kind === K.JsxText && jsxText(x.text) === undefined)) continue;
        }
        out.push(norm(x));
      }
      return out;
    }
    if (v === null || typeof v !== "object") return v;
    if (typeof v.kind !== "number") { // a context record made by candidates(): {node, declKind, ...}
      const out = {};
      for (const k of Object.keys(v).sort()) out[k] = norm(v[k]);
      return out;
    }
    const n = unwrap(v);
    if (n === nameNode) return "_";
    if (n.kind === K.Identifier || n.kind === K.PrivateIdentifier) {
      const hole = selfRef(n);
      if (hole) return hole;
    }
    const out = { kind: K[n.kind] };
    const flags = n.flags & SYNTAX_FLAGS;
    if (flags) out.flags = flags;
    for (const k of Object.keys(n).sort()) {
      if (DROP.has(k) || n[k] === undefined || typeof n[k] === "function") continue;
      if (n.kind === K.JsxText && k === "text") out[k] = jsxText(n[k]);
      // a template's raw text keeps the line breaks as written; its value has CR LF and CR as LF
      else if (k === "rawText") out[k] = n[k].replace(/\r\n?/g, "\n");
      else out[k] = norm(n[k]);
    }
    return out;
  };
  return JSON.stringify(norm(root));
}

function nameOf(n) {
  if (!n) return null;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text; // `#p`, as tether spells it
  if (ts.isStringLiteral(n) || ts.isNumericLiteral(n)) return n.text;
  return null; // computed: `[Symbol.iterator]`
}

// A member's class, interface or object type alias: its members may spell its name (`new Tuple`).
function ownerName(member) {
  let p = member.parent;
  if (ts.isTypeLiteralNode(p) && ts.isTypeAliasDeclaration(p.parent)) p = p.parent;
  const named = ts.isClassLike(p) || ts.isInterfaceDeclaration(p) || ts.isTypeAliasDeclaration(p);
  return named && p.name ? p.name.text : null;
}

const hasDefault = (n) => (ts.getModifiers(n) || []).some((m) => m.kind === K.DefaultKeyword);

// Every definition tether could name: {name, line, endLine, span, fp()}; fp is computed lazily.
function candidates(sf) {
  const out = [];
  const add = (name, node, nameNode, extra, scope) => {
    if (name == null) return;
    const self = { name, scope, owner: scope === "member" ? ownerName(node) : null };
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    const endLine = sf.getLineAndCharacterOfPosition(node.end).line + 1;
    out.push({ name, line, endLine, span: node.end - node.getStart(sf),
               fp: () => canon(extra ? { ...extra, node } : node, nameNode, self) });
  };
  const visit = (n) => {
    switch (n.kind) {
      case K.FunctionDeclaration:
      case K.ClassDeclaration: // `export default function () {}` is `default`
        if (n.name) add(n.name.text, n, n.name, null, "lexical");
        else if (hasDefault(n)) add("default", n, null, null, "other");
        break;
      case K.InterfaceDeclaration:
      case K.TypeAliasDeclaration:
      case K.EnumDeclaration:
      case K.ModuleDeclaration:
        add(nameOf(n.name), n, n.name, null, "lexical");
        break;
      case K.MethodDeclaration:
      case K.MethodSignature:
      case K.GetAccessor:
      case K.SetAccessor:
      case K.PropertyDeclaration: // class fields: tether's "attribute"
      case K.PropertySignature: // interface and object-type members
        add(nameOf(n.name), n, n.name, null, "member");
        break;
      case K.Constructor:
        add("constructor", n, null, null, "member");
        break;
      case K.PropertyAssignment:
        if (FUNCS.has(unwrap(n.initializer).kind)) add(nameOf(n.name), n, n.name, null, "member");
        break;
      case K.VariableDeclaration:
        if (ts.isIdentifier(n.name)) {
          const stmt = n.parent.parent; // a VariableStatement, or a `for` / `for of`
          const extra = { declKind: n.parent.flags & SYNTAX_FLAGS };
          if (ts.isVariableStatement(stmt) && stmt.modifiers) extra.modifiers = stmt.modifiers; // export, declare
          add(n.name.text, n, n.name, extra, "lexical");
        }
        break;
      case K.ExportAssignment: // `export default (req, res) => {}`; not `export =`
        if (!n.isExportEquals && FUNCS.has(unwrap(n.expression).kind)) add("default", n, null, null, "other");
        break;
      case K.BinaryExpression: // `x = function`, `exports.x = ...`, `Foo.prototype.x = ...`
        if (n.operatorToken.kind === K.EqualsToken && FUNCS.has(unwrap(n.right).kind)) {
          const l = n.left;
          if (ts.isIdentifier(l)) add(l.text, n, l, null, "other");
          else if (ts.isPropertyAccessExpression(l) && ts.isIdentifier(l.name)) add(l.name.text, n, l.name, null, "other");
          // tether names `module.exports = function settle() {}` after its function
          const fn = unwrap(n.right);
          if (fn.name && ts.isPropertyAccessExpression(l) && l.getText() === "module.exports") {
            add(fn.name.text, n, fn.name, null, "other");
          }
        }
        break;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

// the compiler always makes a tree; its complaints are reported, the tree is still read
const load = loader((path, text) => {
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const diag = sf.parseDiagnostics[0];
  return { cands: candidates(sf),
           error: diag ? "parse error: " + ts.flattenDiagnosticMessageText(diag.messageText, "\n") : null };
});

if (require.main === module) {
  serve(load);
} else {
  module.exports = { load }; // to read a fingerprint's JSON when a verdict is looked into by hand
}
