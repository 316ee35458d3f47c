"""Object literals that define an API: Vue's options API (`export default { methods: {...} }`),
the same wrapped in `defineComponent(...)`, and objects one level down in a named or exported one.
A Vue options component had no symbol at all before: a memory on `methods.save` could only anchor
the whole file."""

from __future__ import annotations

from symbol_matrix import symbols

CART = """<template>
  <button @click="save">{{ total }}</button>
</template>

<script>
export default {
  name: "Cart",
  data() {
    return { items: [], saving: false };
  },
  computed: {
    total() {
      return this.items.reduce((sum, item) => sum + item.price * item.qty, 0);
    },
  },
  methods: {
    save() {
      this.saving = true;
      return api.post("/cart", { items: this.items, version: 3 }).finally(() => (this.saving = false));
    },
    clear: function () {
      this.items = [];
    },
  },
};
</script>
"""

TS_COMPONENT = """import { defineComponent } from "vue";

export default defineComponent({
  props: { id: String },
  setup(props) {
    return { id: props.id };
  },
  methods: {
    load(id: string): Promise<void> {
      return fetchCart(id).then((c) => (this.cart = c));
    },
  },
});
"""

API = """const api = {
  get(path) { return request("GET", path); },
  admin: {
    reset(user) { return request("POST", `/admin/reset/${user}`); },
    audit: (since) => request("GET", `/admin/audit?since=${since}`),
  },
};

module.exports = {
  parse(text) { return JSON.parse(text); },
  formats: { csv(rows) { return rows.map((r) => r.join(",")).join("\\n"); } },
};

mount({ methods: { inline() { return 1; } } });
"""


def names(path: str, text: str) -> list[tuple[str, str, str | None]]:
    return [(s.qualname, s.kind, s.discriminator) for s in symbols(path, text)]


def test_a_vue_options_component_defines_its_methods_computed_and_data():
    assert names("src/Cart.vue", CART) == [
        ("data", "function", "()"),
        ("computed.total", "function", "()"),
        ("methods.save", "function", "()"),
        ("methods.clear", "function", "()"),
    ]


def test_define_component_in_typescript_is_read_like_the_object_it_wraps():
    assert names("src/Cart.ts", TS_COMPONENT) == [
        ("setup", "function", "(props)"),
        ("methods.load", "function", "(id: string)"),
    ]


def test_objects_one_level_down_in_a_named_or_exported_object_are_prefixed_by_their_key():
    got = names("lib/api.js", API)
    assert ("api.admin.reset", "function", "(user)") in got and ("api.admin.audit", "function", "(since)") in got
    assert ("formats.csv", "function", "(rows)") in got and ("parse", "function", "(text)") in got
    assert not [n for n, _, _ in got if n.endswith("inline")]  # options passed inline define nothing


def test_a_vue_method_goes_stale_on_an_edit_heals_on_revert_and_follows_a_rename(repo):
    repo.write("src/Cart.vue", CART)
    repo.commit()
    mid = repo.remember(
        "save() sends version 3 of the cart payload: the v2 endpoint drops item quantities.",
        "src/Cart.vue::methods.save",
    )
    repo.replace("src/Cart.vue", "version: 3", "version: 2")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert '+      return api.post("/cart", { items: this.items, version: 2 })' in item["anchors"][0]["diff"]
    repo.replace("src/Cart.vue", "version: 2", "version: 3")
    assert repo.check()[mid]["status"] == "active"
    repo.replace("src/Cart.vue", "    save() {", "    persist() {")
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", "methods.persist")
