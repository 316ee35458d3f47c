"""Vue: a retrying fetch in `<script setup lang="ts">`; template and style edits are not its edits.

The script is extracted as TypeScript at its offset in the component, so the function moves out
to a `.ts` composable and hashes the same there.
"""

from .base import LangCase, cut

TS_FUNCTION = """\
async function fetchWithRetry(url: string, attempts = 3): Promise<Release[]> {
  let delay = 500
  for (let attempt = 0; attempt < attempts; attempt++) {
    const response = await api.get(url, { timeout: 30_000 })
    if (response.status < 500) {
      return response.data as Release[]
    }
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay *= 2
  }
  throw new Error(`gave up on ${url} after ${attempts} attempts`)
}
"""

VUE_SOURCE = f"""\
<template>
  <section class="releases">
    <button :disabled="loading" @click="refresh">Refresh</button>
    <p v-if="error" class="error">{{{{ error }}}}</p>
    <ReleaseList v-else :items="releases" />
  </section>
</template>

<script setup lang="ts">
import {{ ref, onMounted }} from 'vue'
import ReleaseList from './ReleaseList.vue'
import {{ api, type Release }} from '@/api'

const releases = ref<Release[]>([])
const loading = ref(false)
const error = ref<string | null>(null)

{TS_FUNCTION}
async function refresh() {{
  loading.value = true
  try {{
    releases.value = await fetchWithRetry('/releases')
  }} catch (e) {{
    error.value = String(e)
  }} finally {{
    loading.value = false
  }}
}}

onMounted(refresh)
</script>

<style scoped>
.error {{ color: #b00; }}
</style>
"""


def _vue(old: str, new: str) -> str:
    assert old in VUE_SOURCE, old
    return VUE_SOURCE.replace(old, new)


VUE = LangCase(
    name="vue",
    path="src/components/Releases.vue",
    other_path="src/composables/useRetry.ts",
    symbol="fetchWithRetry",
    source=VUE_SOURCE,
    cosmetic=_vue("  let delay = 500\n", "  // back off exponentially\n\n  let delay = 500; // ms\n").replace(
        "    const response = await api.get(url, { timeout: 30_000 })\n",
        "    const response = await api.get(url, {\n      timeout: 30_000,\n    })\n",
    ),
    edited=_vue("timeout: 30_000", "timeout: 60_000"),
    edited_line="const response = await api.get(url, { timeout: 60_000 })",
    renamed=_vue("async function fetchWithRetry(", "async function getWithBackoff("),
    new_symbol="getWithBackoff",
    without=cut(VUE_SOURCE, "async function fetchWithRetry", "async function refresh"),
    moved_to=f"import {{ ref }} from 'vue'\nimport {{ api, type Release }} from '@/api'\n\n{TS_FUNCTION}\n"
    "export function useReleases() {\n  const releases = ref<Release[]>([])\n"
    "  const refresh = async () => {\n    releases.value = await fetchWithRetry('/releases')\n  }\n"
    "  return { releases, refresh }\n}\n",
    moved_symbol="fetchWithRetry",
    duplicated=_vue("async function fetchWithRetry(", "async function fetchA(").replace(
        "\nasync function refresh",
        "\n" + TS_FUNCTION.replace("function fetchWithRetry(", "function fetchB(") + "\nasync function refresh",
    ),
    trivial=_vue("onMounted(refresh)\n", "onMounted(refresh)\n\nfunction noop() {}\n"),
    trivial_symbol="noop",
    trivial_renamed=_vue("onMounted(refresh)\n", "onMounted(refresh)\n\nfunction nothing() {}\n"),
    real_edits=(
        ("literal", _vue("let delay = 500", "let delay = 250")),
        ("operator", _vue("response.status < 500", "response.status <= 500")),
        ("called name", _vue("api.get(url", "api.head(url")),
        (
            "statement order",
            _vue(
                "    await new Promise((resolve) => setTimeout(resolve, delay))\n    delay *= 2\n",
                "    delay *= 2\n    await new Promise((resolve) => setTimeout(resolve, delay))\n",
            ),
        ),
        ("type", _vue("attempts = 3): Promise<Release[]>", "attempts = 3): Promise<unknown>")),
    ),
    cosmetic_edits=(
        (
            "template",
            _vue(
                '    <button :disabled="loading" @click="refresh">Refresh</button>\n',
                '    <h2>Releases</h2>\n    <button :disabled="loading" @click="refresh">Reload</button>\n',
            ),
        ),
        ("style", _vue(".error { color: #b00; }", ".error {\n  color: #c00;\n  font-weight: bold;\n}")),
        ("semicolons", _vue("    delay *= 2\n", "    delay *= 2;\n")),
        ("blank lines", _vue("    delay *= 2\n", "\n    delay *= 2\n\n")),
        ("redundant parentheses", _vue("if (response.status < 500) {", "if ((response.status < 500)) {")),
    ),
)
