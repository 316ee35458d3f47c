"""CommonJS and prototype definitions: how much of npm defines its API (express alone has ~70).
Found missing by replaying real JavaScript histories: such a function could only be anchored as
its whole file."""

from __future__ import annotations

from symbol_matrix import one, symbols
from where import PACKAGE

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
    mid = repo.remember(
        "route() returns the layer so callers can chain .get/.post on it.", "lib/router.js::Router.route"
    )
    repo.move("lib/router.js", "lib/router/index.js")
    repo.commit("move")
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["path"]) == ("active", "lib/router/index.js")
    repo.replace("lib/router/index.js", "return layer;", "return this;")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert "+  return this;" in item["anchors"][0]["diff"]


QUERIES = PACKAGE / "anchor" / "queries"


def test_no_query_leans_on_a_predicate_py_tree_sitter_ignores():
    """`#not-any-of?` is silently ignored (it matches everything): use `#not-match?`."""
    for scm in QUERIES.glob("*.scm"):
        code = "\n".join(line.split(";", 1)[0] for line in scm.read_text().splitlines())
        assert "#not-any-of?" not in code, scm.name


OBJECTS = """var a = {
  init: function () {
    return load('a', { retries: 3 });
  },
};

var b = {
  init: function () {
    return load('b', { retries: 5, backoff: 'linear' });
  },
};

module.exports = {
  parse(str) {
    return str.split(',').map(Number);
  },
  format: (list) => list.join(','),
  version: '1.0',
};
"""


def test_an_object_literal_names_its_members_and_module_exports_exports_them():
    got = [(s.qualname, s.kind) for s in symbols("lib/init.js", OBJECTS)]
    assert got == [("a.init", "function"), ("b.init", "function"), ("parse", "function"), ("format", "function")]


def test_members_of_two_objects_are_not_twins_told_apart_by_position(repo):
    """As `init#1` / `init#2`, a third object added above shifted the ordinals, and the memory
    on b's init read a's: stale, with a diff of the wrong function."""
    repo.write("lib/init.js", OBJECTS)
    repo.commit()
    mid = repo.remember(
        "b retries five times with linear backoff: the upstream rate-limits bursts.", "lib/init.js::b.init"
    )
    repo.write("lib/init.js", "var z = {\n  init: function () {\n    return null;\n  },\n};\n\n" + OBJECTS)
    repo.commit("another object first")
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", "b.init")


MIDDLEWARE = """const { verify } = require("./tokens");

module.exports = function (req, res, next) {
  function deny(code) {
    return res.status(code).json({ error: "unauthorized" });
  }
  const token = (req.headers.authorization || "").replace(/^Bearer /, "");
  if (!token) return deny(401);
  req.user = verify(token, { clockTolerance: 30 });
  return next();
};
"""

HANDLER = """export default async (req, res) => {
  const page = Number(req.query.page || 1);
  res.json(await listOrders({ page, perPage: 50 }));
};
"""


def test_a_module_s_own_anonymous_function_is_a_symbol_and_its_helpers_keep_their_names():
    got = [(s.qualname, s.kind, s.discriminator) for s in symbols("lib/auth.js", MIDDLEWARE)]
    assert got == [("module.exports", "function", "(req, res, next)"), ("deny", "function", "(code)")]
    named = MIDDLEWARE.replace("module.exports = function (", "module.exports = function authenticate(")
    assert [s.qualname for s in symbols("lib/auth.js", named)] == ["authenticate", "deny"]
    assert [(s.qualname, s.discriminator) for s in symbols("pages/api/orders.ts", HANDLER)] == [
        ("default", "(req, res)")
    ]


def test_a_default_export_goes_stale_on_an_edit_and_follows_a_move(repo):
    repo.write("pages/api/orders.js", HANDLER)
    repo.commit()
    mid = repo.remember(
        "Orders are paged 50 at a time: the mobile client cannot render more rows smoothly.",
        "pages/api/orders.js::default",
    )
    repo.replace("pages/api/orders.js", "perPage: 50", "perPage: 100")
    assert (repo.check()[mid]["status"], repo.check()[mid]["reason"]) == ("stale", "body_edited")
    repo.replace("pages/api/orders.js", "perPage: 100", "perPage: 50")
    repo.move("pages/api/orders.js", "app/api/orders/route.js")
    repo.commit("app router")
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["path"], item["anchors"][0]["symbol"]) == (
        "active",
        "app/api/orders/route.js",
        "default",
    )
