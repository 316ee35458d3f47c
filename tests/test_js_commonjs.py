"""CommonJS and prototype definitions: how much of npm defines its API (express alone has ~70).
Found missing by replaying real JavaScript histories: such a function could only be anchored as
its whole file."""

from __future__ import annotations

from pathlib import Path

from symbol_matrix import one, symbols

APP = """'use strict';
var app = exports = module.exports = {};

function Router(options) {
  this.stack = [];
}

Router.prototype.route = function route(path) {
  var layer = new Layer(path, this.stack.length);
  this.stack.push(layer);
  return layer;
};

app.listen = function listen() {
  var server = http.createServer(this);
  return server.listen.apply(server, arguments);
};

exports.parse = function (str, options) {
  return decode(str, options || {});
};

module.exports.format = (obj) => encode(obj);
"""


def test_prototype_receiver_and_exports_definitions_are_symbols():
    got = [(s.qualname, s.kind, s.discriminator) for s in symbols("lib/app.js", APP)]
    assert got == [
        ("Router", "function", "(options)"),
        ("Router.route", "method", "(path)"),
        ("app.listen", "method", "()"),
        ("parse", "function", "(str, options)"),
        ("format", "function", "(obj)"),
    ]


def test_the_receiver_is_left_out_of_the_hash_and_the_body_is_not():
    route = one("lib/app.js", APP, "Router.route").hash
    assert one("lib/app.js", APP.replace("Router", "Mux"), "Mux.route").hash == route
    assert one("lib/app.js", APP.replace("this.stack.length", "0"), "Router.route").hash != route


def test_a_prototype_method_follows_a_move_and_goes_stale_on_an_edit(repo):
    repo.write("lib/router.js", APP)
    repo.commit()
    mid = repo.remember("route() returns the layer so callers can chain .get/.post on it.", "lib/router.js::Router.route")
    repo.move("lib/router.js", "lib/router/index.js")
    repo.commit("move")
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["path"]) == ("active", "lib/router/index.js")
    repo.replace("lib/router/index.js", "return layer;", "return this;")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert "+  return this;" in item["anchors"][0]["diff"]


QUERIES = Path(__file__).resolve().parents[1] / "server" / "tether" / "anchor" / "queries"


def test_no_query_leans_on_a_predicate_py_tree_sitter_ignores():
    """`#not-any-of?` is silently ignored (it matches everything): use `#not-match?`."""
    for scm in QUERIES.glob("*.scm"):
        code = "\n".join(line.split(";", 1)[0] for line in scm.read_text().splitlines())
        assert "#not-any-of?" not in code, scm.name
