"""Code the grammar cannot wholly parse: a definition it closes early must not hide edits to the
rest of it (tree-sitter-typescript gives up on a generic call signature on its own line)."""

from __future__ import annotations

PRODUCE = """\
export interface IProduce {
    /** Curried producer */
    <Recipe extends AnyFunc>(recipe: Recipe): InferCurriedFromRecipe<Recipe, false>
    <Base, Recipe extends AnyFunc>(recipe: Recipe, initial: Base): InferCurriedFromInitialStateAndRecipe<Base, Recipe, false>
    <Base, D = Draft<Base>>(base: Base, recipe: (draft: D) => ValidRecipeReturnType<D>, listener?: PatchListener): Base
}

export function produce(base: any, recipe: any) {
    return recipe(base)
}
"""


def test_an_edit_past_where_the_parser_gave_up_is_stale_and_a_comment_is_not(repo):
    repo.write("src/types.ts", PRODUCE)
    repo.commit()
    mid = repo.remember("The overload order matters: TypeScript picks the first that fits.", "src/types.ts::IProduce")
    repo.replace("src/types.ts", "listener?: PatchListener): Base", "listener?: PatchListener): Base | undefined")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert "+    <Base, D = Draft<Base>>(base: Base" in item["anchors"][0]["diff"]
    repo.write("src/types.ts", PRODUCE.replace("    <Base, D", "    // the plain form\n    <Base, D"))
    assert repo.check()[mid]["status"] == "active"
